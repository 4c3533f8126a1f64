import { useEffect, useMemo, useRef, useState } from 'react';
import type { PersonalizationTag } from '../../editor-api.ts';
import { PersonalizationTagNode, type TagLabelSource } from './personalization-tag-node.ts';
import type { PickerKey } from './tag-trigger.ts';

type LabelledTag = Pick<PersonalizationTag, 'id' | 'label'>;

/** The labels chips show, swapped when the workspace's tags change; chips repaint themselves. */
function labelSource(
  initial: readonly LabelledTag[],
): TagLabelSource & { update: (tags: readonly LabelledTag[]) => void } {
  let labels = new Map(initial.map((tag) => [tag.id, tag.label]));
  const listeners = new Set<() => void>();
  return {
    labelOf: (id) => labels.get(id),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    update(tags) {
      labels = new Map(tags.map((tag) => [tag.id, tag.label]));
      for (const listener of listeners) listener();
    },
  };
}

/**
 * The chip node for one field's editor, configured once (the editor is not rebuilt as tags load):
 * labels follow `tags`, and `{` opens the picker while the field is editable and has tags to offer.
 * `keyHandler` is where the caret picker takes its keys.
 */
export function useTagChips(tags: readonly LabelledTag[], editable: boolean) {
  const [labels] = useState(() => labelSource(tags));
  useEffect(() => labels.update(tags), [labels, tags]);
  const keyHandler = useRef<(key: PickerKey) => boolean>(() => false);
  const pickerEnabled = useRef(false);
  pickerEnabled.current = editable && tags.length > 0;
  const extension = useMemo(
    () =>
      PersonalizationTagNode.configure({
        labels,
        pickerEnabled: () => pickerEnabled.current,
        onPickerKey: (key) => keyHandler.current(key),
      }),
    [labels],
  );
  return { extension, keyHandler };
}
