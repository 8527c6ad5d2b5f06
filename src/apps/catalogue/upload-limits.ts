/** The largest archive of an app folder the hub takes as an upload (the package bounds hold what it unpacks to). Free of imports: the contract, and so the web app, reads it. */
export const MAX_UPLOAD_BYTES = 64 * 1024 * 1024;
