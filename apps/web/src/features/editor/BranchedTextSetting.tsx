import {
  type BranchedText,
  nullBranch,
  setPreheader,
  setPreheaderConditional,
  setSubject,
  setSubjectConditional,
} from '@letterset/core';
import { Button, Group, Select, Stack } from '@mantine/core';
import { dispatchCommand, useEditorSession } from './EditorContext.tsx';
import { TextWithTags } from './loaded-on-demand.tsx';

const parts = {
  subject: { name: 'Subject', setText: setSubject, setConditional: setSubjectConditional },
  preheader: { name: 'Preheader', setText: setPreheader, setConditional: setPreheaderConditional },
} as const;

/**
 * The subject or the preheader in the current locale: one text, or one per branch once a
 * conditional allowed in subject and preheader is attached. Focusing a branch shows it in the
 * preview.
 */
export function BranchedTextSetting({ part, text }: { part: keyof typeof parts; text: BranchedText }) {
  const { editor, readOnly, locale, personalizationTags, conditionals, setBranch } = useEditorSession();
  const { name, setText, setConditional } = parts[part];
  const conditionalId = text.conditional_id ?? null;
  const attached = conditionals.find((candidate) => candidate.id === conditionalId);
  const choices = conditionals.filter(
    (candidate) => candidate.can_be_used_in_subject_and_preheader || candidate.id === conditionalId,
  );
  const canAttach =
    !readOnly && editor.can(part === 'subject' ? 'setSubjectConditional' : 'setPreheaderConditional');
  const branches =
    conditionalId === null
      ? [{ key: nullBranch, label: null }]
      : (attached?.branches ?? Object.keys(text.branch_content).map((key) => ({ key, label: key })));

  return (
    <Stack gap={6}>
      {branches.map((branch) => (
        <TextWithTags
          key={branch.key}
          label={branch.label === null ? `${name} (${locale})` : `${name} (${locale}): ${branch.label}`}
          disabled={readOnly}
          value={text.branch_content[branch.key]?.[locale] ?? ''}
          onFocus={() => conditionalId !== null && setBranch(conditionalId, branch.key)}
          onChange={(value) => dispatchCommand(editor, setText(branch.key, locale, value))}
          personalizationTags={personalizationTags}
        />
      ))}
      {choices.length > 0 && (canAttach || conditionalId !== null) && (
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <Select
            label={`${name} conditional`}
            description={`A different ${name.toLowerCase()} per branch.`}
            placeholder="None"
            allowDeselect={false}
            size="xs"
            style={{ flex: 1 }}
            disabled={!canAttach}
            value={conditionalId === null ? null : String(conditionalId)}
            data={choices.map((candidate) => ({ value: String(candidate.id), label: candidate.label }))}
            onChange={(value) => {
              const chosen = choices.find((candidate) => String(candidate.id) === value);
              if (chosen)
                dispatchCommand(
                  editor,
                  setConditional(
                    chosen.id,
                    chosen.branches.map((branch) => branch.key),
                  ),
                );
            }}
          />
          {conditionalId !== null && canAttach && (
            <Button
              size="xs"
              variant="default"
              onClick={() => dispatchCommand(editor, setConditional(null, []))}
            >
              Use one {name.toLowerCase()}
            </Button>
          )}
        </Group>
      )}
    </Stack>
  );
}
