// The one permanent-failure type the pipeline recognises (see ../errors.ts).
export { DocumentError } from '../errors.js';
