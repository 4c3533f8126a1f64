import { defaultKeymap } from '@codemirror/commands';
import { html } from '@codemirror/lang-html';
import { EditorState } from '@codemirror/state';
import { EditorView, keymap, lineNumbers } from '@codemirror/view';
import { Input } from '@mantine/core';
import { useEffect, useRef } from 'react';

/** HTML code in CodeMirror, kept in step with the editor's value (undo changes it from outside). */
export function CodeField({
  id,
  label,
  description,
  error,
  value,
  onChange,
  disabled,
}: {
  id: string;
  label: string;
  description?: string;
  error?: string;
  value: string;
  onChange: (value: string) => void;
  disabled: boolean;
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the view is created once; value changes are applied below.
  useEffect(() => {
    if (!host.current) return;
    view.current = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          keymap.of(defaultKeymap),
          html(),
          EditorView.editable.of(!disabled),
          EditorView.contentAttributes.of({ 'aria-label': label, id }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) onChangeRef.current(update.state.doc.toString());
          }),
        ],
      }),
    });
    return () => view.current?.destroy();
  }, [disabled]);

  useEffect(() => {
    const current = view.current;
    if (current && current.state.doc.toString() !== value) {
      current.dispatch({ changes: { from: 0, to: current.state.doc.length, insert: value } });
    }
  }, [value]);

  return (
    <Input.Wrapper label={label} description={description} error={error}>
      <div
        ref={host}
        style={{
          border: '1px solid var(--mantine-color-gray-4)',
          borderRadius: 4,
          maxHeight: 240,
          overflow: 'auto',
        }}
      />
    </Input.Wrapper>
  );
}
