import { mergeDesignTokens } from '@letterset/core';
import { ColorInput, Fieldset, NumberInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import {
  minimumTextContrast,
  type TokenField,
  tokenAt,
  tokenContrast,
  tokenFieldGroups,
  withTokenOverride,
} from './token-fields.ts';

/**
 * The design system's tokens as fields, grouped as the tokens are; a field left empty keeps the
 * base value (shown as its placeholder), a filled one is the override. A brand profile overrides
 * the design system's tokens; the design system's own editor passes its saved tokens as the base
 * and its whole edited tokens as the overrides, so the fields keep their kind while a colour is
 * half typed.
 */
export function TokenOverrideFields({
  baseTokens,
  overrides,
  readOnly,
  onChange,
  emptyText = 'The design system has no design tokens to override; the Advanced (JSON) tab takes any.',
}: {
  baseTokens: Record<string, unknown>;
  overrides: Record<string, unknown>;
  readOnly: boolean;
  onChange: (overrides: Record<string, unknown>) => void;
  emptyText?: string;
}) {
  const groups = tokenFieldGroups(baseTokens);
  if (groups.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {emptyText}
      </Text>
    );
  }
  const merged = mergeDesignTokens(baseTokens, overrides);
  const labels = new Map(
    groups.flatMap((group) => group.fields.map((field) => [field.path.join('.'), field.label])),
  );
  const set = (field: TokenField, value: string | number | undefined) =>
    onChange(withTokenOverride(overrides, field.path, value === '' ? undefined : value));
  return (
    <Stack gap="sm">
      {groups.map((group) => (
        <Fieldset key={group.key} legend={group.label} variant="filled">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {group.fields.map((field) => {
              const key = field.path.join('.');
              const value = tokenAt(overrides, field.path);
              const common = {
                label: field.label,
                placeholder: String(field.baseValue),
                readOnly,
                'data-token': key,
              };
              if (field.kind === 'color') {
                const contrast = tokenContrast(merged, field.path);
                const low = contrast !== undefined && contrast.ratio < minimumTextContrast;
                return (
                  <ColorInput
                    key={key}
                    {...common}
                    format="hex"
                    value={typeof value === 'string' ? value : ''}
                    onChange={(next) => set(field, next)}
                    description={
                      contrast && (
                        <Text span size="xs" c={low ? 'red.9' : undefined} fw={low ? 600 : undefined}>
                          Contrast {contrast.ratio.toFixed(2)}:1 against{' '}
                          {labels.get(contrast.against.join('.')) ?? contrast.against.join('.')}
                          {low && ` (below ${minimumTextContrast}:1, hard to read as text)`}
                        </Text>
                      )
                    }
                  />
                );
              }
              if (field.kind === 'size') {
                return (
                  <NumberInput
                    key={key}
                    {...common}
                    suffix=" px"
                    value={typeof value === 'number' ? value : ''}
                    onChange={(next) => set(field, typeof next === 'number' ? next : undefined)}
                  />
                );
              }
              return (
                <TextInput
                  key={key}
                  {...common}
                  description={field.kind === 'font' ? 'A font stack, e.g. Georgia, serif' : undefined}
                  value={typeof value === 'string' || typeof value === 'number' ? String(value) : ''}
                  onChange={(event) => set(field, event.currentTarget.value)}
                />
              );
            })}
          </SimpleGrid>
        </Fieldset>
      ))}
    </Stack>
  );
}
