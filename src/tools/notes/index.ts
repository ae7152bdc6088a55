export { createNotes, notesPolicyName, notesReadToolName, notesWriteToolName, type NotesOptions, type NotesPolicy } from "./create-notes.js";
export { createNotesFile, type NotesFile } from "./notes-file.js";
export { type NotesReplay, type NotesSnapshot } from "./notes-snapshot.js";
