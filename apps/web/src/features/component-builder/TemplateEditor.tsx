import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { html } from '@codemirror/lang-html';
import { liquid } from '@codemirror/lang-liquid';
import { bracketMatching, indentOnInput } from '@codemirror/language';
import { type Diagnostic as EditorDiagnostic, forceLinting, linter, lintGutter } from '@codemirror/lint';
import { EditorState, type Text } from '@codemirror/state';
import { EditorView, keymap, lineNumbers } from '@codemirror/view';
import { checkTemplate, type Diagnostic } from '@letterset/core';
import { useEffect, useRef } from 'react';

export interface TemplateProblem {
  message: string;
  line?: number;
  column?: number;
}

/** Where a diagnostic's Liquid line and column fall in the document; the whole first line without them. */
function rangeOf(doc: Text, problem: TemplateProblem): { from: number; to: number } {
  if (problem.line === undefined || problem.line < 1 || problem.line > doc.lines) {
    return { from: 0, to: doc.line(1).to };
  }
  const line = doc.line(problem.line);
  const from = Math.min(line.to, line.from + Math.max(0, (problem.column ?? 1) - 1));
  return { from, to: Math.max(from, line.to) };
}

/** The template check `core` runs on save, run in the browser as the user types. */
export function templateProblems(template: string, container: boolean): TemplateProblem[] {
  return checkTemplate(template, { container }).map((diagnostic: Diagnostic) => ({
    message: diagnostic.message,
    line: diagnostic.line,
    column: diagnostic.column,
  }));
}

const serverPosition = /\(line (\d+), column (\d+)\)$/;

/** The API's template messages (`… (line 3, column 5)`) as problems the editor can mark. */
export function problemsFromServer(messages: readonly string[]): TemplateProblem[] {
  return messages.map((message) => {
    const match = serverPosition.exec(message);
    return match
      ? {
          message: message.replace(serverPosition, '').trim(),
          line: Number(match[1]),
          column: Number(match[2]),
        }
      : { message };
  });
}

/**
 * The Liquid + HTML template editor (CodeMirror 6). Problems from the browser check and from the
 * API's last 422 are shown as inline markers and in the gutter.
 */
export function TemplateEditor({
  value,
  onChange,
  container,
  serverProblems,
  readOnly = false,
  label,
}: {
  value: string;
  onChange: (template: string) => void;
  container: boolean;
  serverProblems: readonly TemplateProblem[];
  readOnly?: boolean;
  label: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  // The linter and the update listener are created once; they read the latest props through refs.
  const latest = useRef({ onChange, container, serverProblems });
  latest.current = { onChange, container, serverProblems };
  // The editor is created once per mount from these; later values arrive through the effects below.
  const initial = useRef({ value, readOnly, label });

  useEffect(() => {
    const { value, readOnly, label } = initial.current;
    if (!host.current) return;
    const editor = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          history(),
          indentOnInput(),
          bracketMatching(),
          keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
          liquid({ base: html() }),
          lintGutter(),
          linter(
            (current) => {
              const doc = current.state.doc;
              const problems = [
                ...templateProblems(doc.toString(), latest.current.container),
                ...latest.current.serverProblems,
              ];
              const seen = new Set<string>();
              return problems.flatMap((problem): EditorDiagnostic[] => {
                const key = `${problem.line}:${problem.column}:${problem.message}`;
                if (seen.has(key)) return [];
                seen.add(key);
                return [{ ...rangeOf(doc, problem), severity: 'error', message: problem.message }];
              });
            },
            { delay: 300 },
          ),
          EditorState.readOnly.of(readOnly),
          // An explicit tab stop tells checkers (axe) that the scrolling area holds focusable
          // content: keyboard users reach it and scroll it from the text itself.
          EditorView.contentAttributes.of({ 'aria-label': label, tabindex: '0' }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) latest.current.onChange(update.state.doc.toString());
          }),
          EditorView.theme({
            '&': {
              fontSize: '13px',
              border: '1px solid var(--mantine-color-default-border)',
              borderRadius: '4px',
            },
            '.cm-scroller': {
              fontFamily: 'var(--mantine-font-family-monospace)',
              minHeight: '240px',
              maxHeight: '480px',
            },
          }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
  }, []);

  // A value from outside (a restored version, a reload after save) replaces the document.
  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== value) {
      editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
    }
  }, [value]);

  // The linter reads these through `latest`; a change must re-run it without waiting for a keystroke.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the dependencies are the trigger
  useEffect(() => {
    if (view.current) forceLinting(view.current);
  }, [serverProblems, container]);

  return <div ref={host} data-testid="template-editor" />;
}
