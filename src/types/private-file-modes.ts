/**
 * Modes for everything ctxkit stores: transcripts, blobs, spills, notes and request logs hold what the
 * model read (`.env` files included), so only the owner may read them. `mkdir`'s mode applies to every
 * folder a recursive call creates; a umask can only narrow it further. Here, below every layer, because
 * the tools' own files (output spills, notes) are written with them as well as the session store's.
 */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIRECTORY_MODE = 0o700;
