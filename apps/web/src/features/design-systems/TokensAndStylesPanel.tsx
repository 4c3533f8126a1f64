import { Alert, Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { monospaceInput } from '../../shared/monospace.ts';
import { showNestedApiErrors } from '../../shared/nested-form-errors.ts';
import { RowsEditor } from '../../shared/RowsEditor.tsx';
import { type DesignSystem, designSystemKeys, updateDesignSystem } from './design-systems-api.ts';

/** Parses a JSON object typed by hand; the message says what is wrong in words. */
export function parseTokens(text: string): { tokens: Record<string, unknown> } | { problem: string } {
  if (text.trim() === '') return { tokens: {} };
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      return { problem: 'must be a JSON object, e.g. { "colors": { "primary": "#1890ff" } }' };
    }
    return { tokens: parsed as Record<string, unknown> };
  } catch (error) {
    return { problem: `is not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** The design system's tokens (free-form JSON read by templates) and custom styles (offered in rich text). */
export function TokensAndStylesPanel({
  workspaceId,
  system,
  editable,
}: {
  workspaceId: number;
  system: DesignSystem;
  editable: boolean;
}) {
  const queryClient = useQueryClient();
  const [problems, setProblems] = useState<string[]>([]);
  const form = useForm({
    initialValues: {
      design_tokens: JSON.stringify(system.design_tokens, null, 2),
      custom_styles: system.custom_styles,
    },
  });
  const save = form.onSubmit(async (values) => {
    setProblems([]);
    const parsed = parseTokens(values.design_tokens);
    if ('problem' in parsed) {
      form.setFieldError('design_tokens', `Design tokens ${parsed.problem}`);
      return;
    }
    try {
      const saved = await updateDesignSystem(workspaceId, system.id, {
        design_tokens: parsed.tokens,
        custom_styles: values.custom_styles,
      });
      queryClient.setQueryData(designSystemKeys.one(workspaceId, system.id), saved);
      form.resetDirty();
      notifications.show({ message: 'Tokens and custom styles saved' });
    } catch (error) {
      setProblems(showNestedApiErrors(form, error, ['design_tokens', 'custom_styles']));
    }
  });
  return (
    <form onSubmit={save} noValidate>
      <Stack>
        {problems.length > 0 && (
          <Alert color="red" role="alert">
            {problems.join(' ')}
          </Alert>
        )}
        <Textarea
          label="Design tokens (JSON)"
          description="Colours, fonts, spacing… Templates read them as {{ render_context.design_tokens.colors.primary }}; brand profiles can override any of them."
          styles={monospaceInput}
          autosize
          minRows={6}
          maxRows={24}
          readOnly={!editable}
          {...form.getInputProps('design_tokens')}
        />
        <RowsEditor
          form={form}
          path="custom_styles"
          legend="Custom styles"
          columns={[
            { key: 'label', label: 'Label (in the toolbar)', placeholder: 'Highlight' },
            { key: 'name', label: 'Name', placeholder: 'highlight', monospace: true },
            {
              key: 'style',
              label: 'CSS',
              placeholder: 'color: #0066CC; font-weight: bold;',
              monospace: true,
            },
          ]}
          newRow={() => ({ label: '', name: '', style: '' })}
          addLabel="Add custom style"
          readOnly={!editable}
          emptyText="No custom styles. Rich-text fields can offer them in their toolbar; each becomes the class es-custom-style-NAME."
        />
        {editable ? (
          <Group justify="flex-end">
            <Button type="submit" disabled={!form.isDirty()} loading={form.submitting}>
              Save tokens and styles
            </Button>
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            Read only.
          </Text>
        )}
      </Stack>
    </form>
  );
}
