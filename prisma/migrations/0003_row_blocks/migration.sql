-- AlterTable
ALTER TABLE "extraction_tables" ADD COLUMN     "block_mask_counts" INTEGER[] DEFAULT ARRAY[]::INTEGER[];

