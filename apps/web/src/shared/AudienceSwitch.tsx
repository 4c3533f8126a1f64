import {
  type AudienceOption,
  audienceOptions,
  audienceOptionValue,
  type BranchSelection,
  type ConditionalAudiences,
} from '@letterset/core';
import { Select } from '@mantine/core';

/**
 * Shows the email as one audience sees it: every branch of every conditional the email uses, as
 * "<conditional>: <branch>" (the branch alone when it uses one conditional). Choosing one shows
 * that branch wherever its conditional is used; the other conditionals keep theirs. Nothing is
 * shown for an email without conditionals.
 */
export function AudienceSwitch({
  audiences,
  selection,
  shownConditionalId,
  onChange,
  size = 'xs',
}: {
  audiences: readonly ConditionalAudiences[];
  /** The branch shown per conditional (defaults filled in). */
  selection: BranchSelection;
  /** The conditional whose branch the switch shows: the one last chosen; absent, the first used. */
  shownConditionalId?: number | null;
  onChange: (conditionalId: number, branchKey: string) => void;
  size?: 'xs' | 'sm';
}) {
  if (audiences.length === 0) return null;
  const options = audienceOptions(audiences);
  const shown =
    audiences.find((audience) => audience.conditionalId === shownConditionalId) ??
    (audiences[0] as ConditionalAudiences);
  const shownKey = selection[String(shown.conditionalId)] ?? shown.defaultBranchKey;
  const byValue = new Map<string, AudienceOption>(options.map((option) => [option.value, option]));
  return (
    <Select
      aria-label="Audience"
      size={size}
      w={audiences.length > 1 ? 240 : 180}
      maw="100%"
      allowDeselect={false}
      comboboxProps={{ withinPortal: true }}
      data={options.map((option) => ({ value: option.value, label: option.label }))}
      value={audienceOptionValue(shown.conditionalId, shownKey)}
      onChange={(value) => {
        const option = value === null ? undefined : byValue.get(value);
        if (option) onChange(option.conditionalId, option.branchKey);
      }}
    />
  );
}
