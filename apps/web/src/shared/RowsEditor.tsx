import { ActionIcon, Button, Fieldset, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import type { useForm } from '@mantine/form';
import { IconTrash } from '@tabler/icons-react';

/** A Mantine form over `Values` (the package's own name for this type does not resolve here). */
export type FormOf<Values extends Record<string, unknown>> = ReturnType<typeof useForm<Values>>;

export interface RowColumn {
  key: string;
  label: string;
  placeholder?: string;
  monospace?: boolean;
  /** A select instead of a text input. */
  options?: { value: string; label: string }[];
  /** Shown only on rows this accepts (e.g. a value only for fixed values). */
  when?: (row: Record<string, unknown>) => boolean;
}

/** Rows of inputs over a list in a form (parameters, headers, fields…): add, edit, remove. */
export function RowsEditor<Values extends Record<string, unknown>>({
  form,
  path,
  legend,
  columns,
  newRow,
  addLabel,
  readOnly = false,
  emptyText,
}: {
  form: FormOf<Values>;
  path: string;
  legend: string;
  columns: RowColumn[];
  newRow: () => Record<string, unknown>;
  addLabel: string;
  readOnly?: boolean;
  emptyText: string;
}) {
  const rows = (form.getInputProps(path).value ?? []) as Record<string, unknown>[];
  const listError = form.errors[path];
  return (
    <Fieldset legend={legend} variant="filled">
      <Stack gap="xs">
        {rows.length === 0 && (
          <Text size="sm" c="dimmed">
            {emptyText}
          </Text>
        )}
        {rows.map((row, index) => (
          // Rows have no identity of their own; the API's errors name them by position too.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <Group key={index} align="flex-start" gap="xs" wrap="nowrap">
            {columns.map((column) =>
              column.when && !column.when(row) ? (
                <div key={column.key} style={{ flex: 1 }} />
              ) : column.options ? (
                <Select
                  key={column.key}
                  label={column.label}
                  size="xs"
                  data={column.options}
                  allowDeselect={false}
                  readOnly={readOnly}
                  style={{ flex: 1 }}
                  {...form.getInputProps(`${path}.${index}.${column.key}`)}
                />
              ) : (
                <TextInput
                  key={column.key}
                  label={column.label}
                  placeholder={column.placeholder}
                  size="xs"
                  ff={column.monospace ? 'monospace' : undefined}
                  readOnly={readOnly}
                  style={{ flex: 1 }}
                  {...form.getInputProps(`${path}.${index}.${column.key}`)}
                />
              ),
            )}
            {!readOnly && (
              <ActionIcon
                mt={22}
                variant="subtle"
                color="red"
                aria-label={`Remove row ${index + 1} of ${legend}`}
                onClick={() => form.removeListItem(path, index)}
              >
                <IconTrash size={16} />
              </ActionIcon>
            )}
          </Group>
        ))}
        {listError && (
          <Text size="xs" c="red">
            {listError}
          </Text>
        )}
        {!readOnly && (
          <Button
            size="xs"
            variant="light"
            style={{ alignSelf: 'flex-start' }}
            onClick={() => form.insertListItem(path, newRow() as never)}
          >
            {addLabel}
          </Button>
        )}
      </Stack>
    </Fieldset>
  );
}
