import { Alert, Button, Code, Fieldset, Group, Stack, Tabs, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { monospaceInput } from '../../shared/monospace.ts';
import { showNestedApiErrors } from '../../shared/nested-form-errors.ts';
import { CustomStylesRows } from '../design-tokens/CustomStylesRows.tsx';
import { parseTokens } from '../design-tokens/parse-tokens.ts';
import { TokenOverrideFields } from '../design-tokens/TokenOverrideFields.tsx';
import { type DesignSystem, designSystemKeys, updateDesignSystem } from './design-systems-api.ts';

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
  const parsedTokens = parseTokens(form.values.design_tokens);
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
        <Fieldset legend="Design tokens" variant="unstyled">
          <Text size="sm" c="dimmed" mb="xs">
            Colours, fonts, sizes… Templates read them as{' '}
            <Code>{'{{ render_context.design_tokens.colors.primary }}'}</Code>; brand profiles can override
            any of them.
          </Text>
          <Tabs defaultValue="fields" keepMounted={false}>
            <Tabs.List>
              <Tabs.Tab value="fields">Tokens</Tabs.Tab>
              <Tabs.Tab value="json">Advanced (JSON)</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="fields" pt="sm">
              {'problem' in parsedTokens ? (
                <Text size="sm" c="red.9" role="alert">
                  Design tokens {parsedTokens.problem}. Correct it in the Advanced (JSON) tab to edit the
                  tokens here.
                </Text>
              ) : (
                <TokenOverrideFields
                  baseTokens={system.design_tokens ?? {}}
                  overrides={parsedTokens.tokens}
                  readOnly={!editable}
                  onChange={(next) => form.setFieldValue('design_tokens', JSON.stringify(next, null, 2))}
                  emptyText="No design tokens yet. Add them in the Advanced (JSON) tab, e.g. { &quot;colors&quot;: { &quot;primary&quot;: &quot;#2f5bea&quot; } }; they then show here as fields."
                />
              )}
            </Tabs.Panel>
            <Tabs.Panel value="json" pt="sm">
              <Textarea
                label="Design tokens (JSON)"
                description="Any JSON object; new tokens show as fields once saved. Removing a field's value removes the token."
                styles={monospaceInput}
                autosize
                minRows={6}
                maxRows={24}
                readOnly={!editable}
                {...form.getInputProps('design_tokens')}
              />
            </Tabs.Panel>
          </Tabs>
        </Fieldset>
        <CustomStylesRows
          form={form}
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
