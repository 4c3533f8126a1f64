export * from './apply-command.ts';
export * from './commands.ts';
export { type EditorDocument, InvalidCommandError } from './document.ts';
export * from './editor.ts';
