/**
 * A permanent problem with the document itself (corrupt, encrypted, empty, unreadable image).
 * The pipeline fails the extraction with this message and does not retry; anything else
 * thrown by the readers is treated as transient.
 */
export class DocumentError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DocumentError';
  }
}
