/** A document that can never be read (corrupt, encrypted, empty): fails the extraction without retrying. */
export class DocumentError extends Error {
  override name = 'DocumentError';
}

/**
 * A read stopped at its ReadLimit (types.ts): the document is longer, or needs OCR. Not a failure:
 * the caller reads it again without the limit, where it can take its time.
 */
export class LongRead extends Error {
  override name = 'LongRead';
}
