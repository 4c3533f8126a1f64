export * from './apply-command.ts';
export * from './commands.ts';
export * from './describe-changes.ts';
export { type EditorDocument, InvalidCommandError, sameDocument, sameJsonValue } from './document.ts';
export * from './editor.ts';
export * from './merge-documents.ts';
