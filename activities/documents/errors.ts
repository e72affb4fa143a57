/** A document that can never be read (corrupt, encrypted, empty): fails the extraction without retrying. */
export class DocumentError extends Error {
  override name = 'DocumentError';
}
