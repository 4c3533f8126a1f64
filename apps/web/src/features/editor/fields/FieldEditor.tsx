import {
  alignmentChoices,
  type CustomStyle,
  type FieldDefinition,
  validateFieldValue,
} from '@letterset/core';
import {
  Button,
  ColorInput,
  Group,
  Image,
  Input,
  NumberInput,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useState } from 'react';
import type { PersonalizationTag } from '../editor-api.ts';
import { CodeField, ImagePickerDialog, RichTextField, TextWithTags } from '../loaded-on-demand.tsx';

export type StoredValue = string | number | boolean | null | undefined;

/** The DOM id of a field's input, so a click in the preview or a validation problem can focus it. */
export function fieldInputId(instanceId: string, variable: string): string {
  return `field-${instanceId}-${variable}`;
}

/**
 * One field of the selected instance, with the control its type calls for. It shows the stored
 * value, else the default (so the user sees what the email shows), and the field's validation
 * messages as the value changes.
 */
export function FieldEditor({
  workspaceId,
  instanceId,
  definition,
  value,
  onChange,
  disabled,
  personalizationTags,
  customStyles,
}: {
  workspaceId: number;
  instanceId: string;
  definition: FieldDefinition;
  value: StoredValue;
  onChange: (value: string | number | boolean | null) => void;
  disabled: boolean;
  personalizationTags: readonly PersonalizationTag[];
  customStyles: readonly CustomStyle[];
}) {
  const id = fieldInputId(instanceId, definition.liquid_variable);
  const shown = value === undefined || value === null ? definition.default_value : value;
  const problems = validateFieldValue(definition, shown);
  const error = problems.length > 0 ? problems.join('; ') : undefined;
  const description = definition.hint ?? undefined;
  const common = { id, label: definition.label, description, error, disabled };

  switch (definition.type) {
    case 'text':
      return (
        <TextWithTags
          {...common}
          value={String(shown)}
          onChange={onChange}
          personalizationTags={personalizationTags}
        />
      );
    case 'rich_text':
      return (
        <RichTextField
          definition={definition}
          customStyles={customStyles}
          label={definition.label}
          description={description}
          error={error}
          value={String(shown)}
          onChange={onChange}
          disabled={disabled}
          personalizationTags={personalizationTags}
        />
      );
    case 'number':
      return (
        <NumberInput
          {...common}
          value={typeof shown === 'number' ? shown : Number(shown)}
          onChange={(next) => onChange(typeof next === 'number' ? next : null)}
        />
      );
    case 'boolean':
      return (
        <Switch
          id={id}
          label={definition.label}
          description={description}
          error={error}
          disabled={disabled}
          checked={shown === true}
          onChange={(event) => onChange(event.currentTarget.checked)}
        />
      );
    case 'enum':
      return <EnumField {...common} definition={definition} value={String(shown)} onChange={onChange} />;
    case 'url':
      return (
        <TextWithTags
          {...common}
          url
          description={
            definition.skip_link_tracking
              ? [description, 'Link tracking is off for this link.'].filter(Boolean).join(' ')
              : description
          }
          value={String(shown)}
          onChange={onChange}
          personalizationTags={personalizationTags}
        />
      );
    case 'image':
      return <ImageField {...common} workspaceId={workspaceId} value={String(shown)} onChange={onChange} />;
    case 'color':
      return <ColorInput {...common} value={String(shown)} onChange={onChange} format="hex" />;
    case 'code':
      return <CodeField {...common} value={String(shown)} onChange={onChange} disabled={disabled} />;
    case 'horizontal_align':
    case 'vertical_align':
      return (
        <Input.Wrapper label={definition.label} description={description} error={error} id={id}>
          <SegmentedControl
            fullWidth
            disabled={disabled}
            value={String(shown)}
            onChange={onChange}
            data={alignmentChoices(definition).map((choice) => ({ value: choice, label: choice }))}
            aria-label={definition.label}
          />
        </Input.Wrapper>
      );
  }
}

/** An image's address, typed in or chosen from the workspace's image library, with a thumbnail. */
function ImageField({
  workspaceId,
  value,
  onChange,
  ...common
}: {
  id: string;
  label: string;
  description?: string;
  error?: string;
  disabled: boolean;
  workspaceId: number;
  value: string;
  onChange: (value: string) => void;
}) {
  const [picking, setPicking] = useState(false);
  return (
    <Stack gap={4}>
      <TextInput
        {...common}
        type="url"
        placeholder="https://"
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
      />
      <Group gap="xs" wrap="nowrap">
        {!common.disabled && (
          <Button size="compact-xs" variant="light" onClick={() => setPicking(true)}>
            Choose from library
          </Button>
        )}
        {value && <Image src={value} alt="" h={60} w="auto" fit="contain" radius="sm" />}
      </Group>
      <ImagePickerDialog
        workspaceId={workspaceId}
        opened={picking}
        onClose={() => setPicking(false)}
        onPick={(image) => onChange(image.url)}
        fieldImageUrl={value || undefined}
      />
    </Stack>
  );
}

function EnumField({
  definition,
  value,
  onChange,
  ...common
}: {
  id: string;
  label: string;
  description?: string;
  error?: string;
  disabled: boolean;
  definition: FieldDefinition;
  value: string;
  onChange: (value: string) => void;
}) {
  const options = (definition.options ?? []).filter(
    (option): option is { label: string; value: string; icon_url?: string | null } =>
      typeof option === 'object',
  );
  if (options.some((option) => option.icon_url)) {
    return (
      <Input.Wrapper
        label={common.label}
        description={common.description}
        error={common.error}
        id={common.id}
      >
        <SegmentedControl
          fullWidth
          disabled={common.disabled}
          value={value}
          onChange={onChange}
          aria-label={common.label}
          data={options.map((option) => ({
            value: option.value,
            label: option.icon_url ? (
              <Tooltip label={option.label}>
                <Group justify="center">
                  <Image src={option.icon_url} alt={option.label} h={18} w={18} />
                </Group>
              </Tooltip>
            ) : (
              option.label
            ),
          }))}
        />
      </Input.Wrapper>
    );
  }
  return (
    <Select
      {...common}
      value={value}
      allowDeselect={false}
      onChange={(next) => next !== null && onChange(next)}
      data={options.map((option) => ({ value: option.value, label: option.label }))}
    />
  );
}
