import {
  alignmentChoices,
  type CustomStyle,
  type EnumOption,
  type FieldDefinition,
  type FieldType,
  fieldTypeSpecs,
  fieldTypes,
  horizontalAlignments,
  type RichTextMarkName,
  richTextMarkNames,
  verticalAlignments,
} from '@letterset/core';
import {
  ActionIcon,
  Autocomplete,
  Button,
  Checkbox,
  ColorInput,
  Fieldset,
  Group,
  MultiSelect,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { monospaceInput } from '../../shared/monospace.ts';
import { changeFieldType, problemsUnder } from './field-definitions.ts';

const typeOptions = fieldTypes.map((type) => ({ value: type, label: fieldTypeSpecs[type].label }));

const validationLabels: Record<string, string> = {
  min_length: 'Minimum length',
  max_length: 'Maximum length',
  min: 'Minimum',
  max: 'Maximum',
  min_content_length: 'Minimum text length',
  max_content_length: 'Maximum text length',
  must_not_be_blank: 'Must not be blank',
  must_not_be_default: 'Must be changed from the default',
};

const markLabels: Record<RichTextMarkName, string> = {
  bold: 'Bold',
  italic: 'Italic',
  link: 'Link',
  bullet_list: 'Bulleted list',
  numbered_list: 'Numbered list',
};

/** Editing one field definition: common properties, the type's validations and its own settings. */
export function FieldDefinitionEditor({
  definition,
  onChange,
  problems,
  customStyles,
  feedFields,
}: {
  definition: FieldDefinition;
  onChange: (definition: FieldDefinition) => void;
  /** Messages keyed by path inside the definition (`label`, `options.1.value`). */
  problems?: Record<string, string[]>;
  customStyles: readonly CustomStyle[];
  /** The fields of the component's feed, or null when it has none. */
  feedFields: readonly string[] | null;
}) {
  const spec = fieldTypeSpecs[definition.type];
  const error = (path: string) => problemsUnder(problems, path).join('; ') || undefined;
  const set = (changes: Partial<FieldDefinition>) => onChange({ ...definition, ...changes });
  const text = (key: 'group' | 'hint' | 'visible_if' | 'feed_field_name') => ({
    value: definition[key] ?? '',
    onChange: (event: React.ChangeEvent<HTMLInputElement>) =>
      set({ [key]: event.currentTarget.value === '' ? undefined : event.currentTarget.value }),
    error: error(key),
  });
  const otherProblems = Object.entries(problems ?? {}).filter(
    ([path]) => !shownPaths.has(path.split('.')[0] ?? ''),
  );

  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select
          label="Type"
          data={typeOptions}
          value={definition.type}
          allowDeselect={false}
          onChange={(type) => type && onChange(changeFieldType(definition, type as FieldType))}
          error={error('type')}
        />
        <TextInput
          label="Label"
          required
          value={definition.label}
          onChange={(event) => set({ label: event.currentTarget.value })}
          error={error('label')}
        />
        <TextInput
          label="Liquid variable"
          description="The name the template reads"
          required
          styles={monospaceInput}
          value={definition.liquid_variable}
          onChange={(event) => set({ liquid_variable: event.currentTarget.value })}
          error={error('liquid_variable')}
        />
        <TextInput label="Group" description="Fields of a group are shown together" {...text('group')} />
      </SimpleGrid>
      <DefaultValueInput
        definition={definition}
        onChange={(value) => set({ default_value: value })}
        error={error('default_value')}
      />
      <TextInput label="Hint" description="Help shown under the input in the editor" {...text('hint')} />
      {(feedFields !== null || definition.feed_field_name) && (
        <Autocomplete
          label="Feed field"
          description="Filling from the component's feed puts this feed field's value here"
          placeholder={feedFields?.length ? 'Choose or type a feed field' : 'Type a feed field'}
          data={[...(feedFields ?? [])]}
          {...text('feed_field_name')}
          onChange={(value) => set({ feed_field_name: value === '' ? undefined : value })}
        />
      )}
      <TextInput
        label="Visible if"
        description="A Liquid condition over the other fields, e.g. show_button == true"
        styles={monospaceInput}
        {...text('visible_if')}
      />
      <Group>
        <Switch
          label="Hidden in the editor"
          checked={definition.hidden_in_editor ?? false}
          onChange={(event) => set({ hidden_in_editor: event.currentTarget.checked || undefined })}
          error={error('hidden_in_editor')}
        />
        <Switch
          label="Hidden from AI"
          checked={definition.hidden_from_ai ?? false}
          onChange={(event) => set({ hidden_from_ai: event.currentTarget.checked || undefined })}
          error={error('hidden_from_ai')}
        />
      </Group>
      {definition.type === 'enum' && (
        <EnumOptionsEditor
          options={(definition.options ?? []) as EnumOption[]}
          onChange={(options) => set({ options })}
          error={error}
        />
      )}
      {(definition.type === 'horizontal_align' || definition.type === 'vertical_align') && (
        <MultiSelect
          label="Offered alignments"
          data={[...(definition.type === 'vertical_align' ? verticalAlignments : horizontalAlignments)]}
          value={alignmentChoices(definition)}
          onChange={(options) => set({ options, alignments: undefined })}
          error={error('options') ?? error('alignments')}
        />
      )}
      {definition.type === 'url' && (
        <Switch
          label="Skip link tracking (the link tracking profile leaves this URL alone)"
          checked={definition.skip_link_tracking ?? false}
          onChange={(event) => set({ skip_link_tracking: event.currentTarget.checked || undefined })}
          error={error('skip_link_tracking')}
        />
      )}
      {definition.type === 'rich_text' && (
        <RichTextSettings definition={definition} set={set} error={error} customStyles={customStyles} />
      )}
      {Object.keys(spec.validations).length > 0 && (
        <Fieldset legend="Validations" variant="filled">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {Object.entries(spec.validations).map(([name, kind]) => {
              const current = definition.validations?.[name];
              const setValidation = (value: number | boolean | undefined) => {
                const validations = { ...definition.validations };
                if (value === undefined || value === false) delete validations[name];
                else validations[name] = value;
                set({ validations: Object.keys(validations).length > 0 ? validations : undefined });
              };
              return kind === 'boolean' ? (
                <Checkbox
                  key={name}
                  label={validationLabels[name] ?? name}
                  checked={current === true}
                  onChange={(event) => setValidation(event.currentTarget.checked)}
                  error={error(`validations.${name}`)}
                />
              ) : (
                <NumberInput
                  key={name}
                  label={validationLabels[name] ?? name}
                  value={typeof current === 'number' ? current : ''}
                  allowDecimal={kind === 'number'}
                  min={kind === 'length' ? 0 : undefined}
                  onChange={(value) => setValidation(typeof value === 'number' ? value : undefined)}
                  error={error(`validations.${name}`)}
                />
              );
            })}
          </SimpleGrid>
        </Fieldset>
      )}
      {otherProblems.length > 0 && (
        <Text size="sm" c="red" role="alert">
          {otherProblems.map(([path, messages]) => `${path} ${messages.join('; ')}`).join('. ')}
        </Text>
      )}
    </Stack>
  );
}

/** Paths the inputs above show; anything else is listed under them so no message is lost. */
const shownPaths = new Set([
  'type',
  'label',
  'liquid_variable',
  'group',
  'default_value',
  'hint',
  'feed_field_name',
  'visible_if',
  'hidden_in_editor',
  'hidden_from_ai',
  'options',
  'alignments',
  'skip_link_tracking',
  'marks',
  'custom_styles_names',
  'validations',
]);

function DefaultValueInput({
  definition,
  onChange,
  error,
}: {
  definition: FieldDefinition;
  onChange: (value: string | number | boolean) => void;
  error?: string;
}) {
  const label = 'Default value';
  const value = definition.default_value;
  switch (definition.type) {
    case 'number':
      return (
        <NumberInput
          label={label}
          value={typeof value === 'number' ? value : ''}
          onChange={(next) => onChange(typeof next === 'number' ? next : 0)}
          error={error}
        />
      );
    case 'boolean':
      return (
        <Switch
          label="On by default"
          checked={value === true}
          onChange={(event) => onChange(event.currentTarget.checked)}
          error={error}
        />
      );
    case 'enum':
      return (
        <Select
          label={label}
          data={((definition.options ?? []) as EnumOption[])
            .filter((option) => option.value !== '')
            .map((option) => ({ value: option.value, label: option.label || option.value }))}
          value={typeof value === 'string' ? value : null}
          onChange={(next) => onChange(next ?? '')}
          error={error}
        />
      );
    case 'color':
      return (
        <ColorInput label={label} format="hex" value={String(value)} onChange={onChange} error={error} />
      );
    case 'horizontal_align':
    case 'vertical_align':
      return (
        <Select
          label={label}
          data={alignmentChoices(definition)}
          value={typeof value === 'string' ? value : null}
          onChange={(next) => onChange(next ?? '')}
          error={error}
        />
      );
    case 'rich_text':
    case 'code':
      return (
        <Textarea
          label={label}
          description={definition.type === 'rich_text' ? 'HTML, e.g. <p>Hello</p>' : 'HTML inserted as is'}
          styles={monospaceInput}
          autosize
          minRows={2}
          value={String(value)}
          onChange={(event) => onChange(event.currentTarget.value)}
          error={error}
        />
      );
    default:
      return (
        <TextInput
          label={label}
          type={definition.type === 'url' || definition.type === 'image' ? 'url' : 'text'}
          description={definition.type === 'image' ? 'The image URL' : undefined}
          value={String(value)}
          onChange={(event) => onChange(event.currentTarget.value)}
          error={error}
        />
      );
  }
}

function EnumOptionsEditor({
  options,
  onChange,
  error,
}: {
  options: EnumOption[];
  onChange: (options: EnumOption[]) => void;
  error: (path: string) => string | undefined;
}) {
  const update = (index: number, changes: Partial<EnumOption>) =>
    onChange(options.map((option, at) => (at === index ? { ...option, ...changes } : option)));
  return (
    <Fieldset legend="Options" variant="filled">
      <Stack gap="xs">
        {options.map((option, index) => (
          // Options have no identity of their own; their position is what the API's errors name.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <Group key={index} align="flex-start" gap="xs" wrap="nowrap">
            <TextInput
              label="Label"
              size="xs"
              value={option.label}
              onChange={(event) => update(index, { label: event.currentTarget.value })}
              error={error(`options.${index}.label`)}
              style={{ flex: 1 }}
            />
            <TextInput
              label="Value"
              size="xs"
              styles={monospaceInput}
              value={option.value}
              onChange={(event) => update(index, { value: event.currentTarget.value })}
              error={error(`options.${index}.value`)}
              style={{ flex: 1 }}
            />
            <TextInput
              label="Icon URL"
              size="xs"
              value={option.icon_url ?? ''}
              onChange={(event) => update(index, { icon_url: event.currentTarget.value || undefined })}
              error={error(`options.${index}.icon_url`)}
              style={{ flex: 1 }}
            />
            <ActionIcon
              mt={22}
              variant="subtle"
              color="red"
              aria-label={`Remove option ${option.label || index + 1}`}
              onClick={() => onChange(options.filter((_, at) => at !== index))}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
        {error('options') && options.length === 0 && (
          <Text size="xs" c="red">
            {error('options')}
          </Text>
        )}
        <Button
          size="xs"
          variant="light"
          onClick={() =>
            onChange([
              ...options,
              { label: `Option ${options.length + 1}`, value: `option_${options.length + 1}` },
            ])
          }
          style={{ alignSelf: 'flex-start' }}
        >
          Add option
        </Button>
      </Stack>
    </Fieldset>
  );
}

function RichTextSettings({
  definition,
  set,
  error,
  customStyles,
}: {
  definition: FieldDefinition;
  set: (changes: Partial<FieldDefinition>) => void;
  error: (path: string) => string | undefined;
  customStyles: readonly CustomStyle[];
}) {
  const styleOptions = customStyles.map((style) => ({ value: style.name, label: style.label }));
  const marks = definition.marks ?? {};
  return (
    <Fieldset legend="Rich text" variant="filled">
      <Stack gap="xs">
        {richTextMarkNames.map((name) => {
          const mark = marks[name];
          return (
            <Group key={name} gap="sm" align="flex-end" wrap="nowrap">
              <Checkbox
                label={markLabels[name]}
                checked={mark?.enabled ?? false}
                onChange={(event) =>
                  set({ marks: { ...marks, [name]: { ...mark, enabled: event.currentTarget.checked } } })
                }
                w={140}
                error={error(`marks.${name}.enabled`)}
              />
              {styleOptions.length > 0 && (
                <Select
                  size="xs"
                  aria-label={`Custom style for ${markLabels[name]}`}
                  placeholder="No custom style"
                  data={styleOptions}
                  value={mark?.custom_style_name ?? null}
                  clearable
                  disabled={!mark?.enabled}
                  onChange={(styleName) =>
                    set({
                      marks: {
                        ...marks,
                        [name]: { enabled: mark?.enabled ?? false, custom_style_name: styleName },
                      },
                    })
                  }
                  error={error(`marks.${name}.custom_style_name`)}
                />
              )}
            </Group>
          );
        })}
        {error('marks') && !richTextMarkNames.some((name) => error(`marks.${name}`)) && (
          <Text size="xs" c="red">
            {error('marks')}
          </Text>
        )}
        <MultiSelect
          label="Custom styles offered"
          description={
            styleOptions.length === 0
              ? 'The design system has no custom styles yet'
              : 'Shown in the rich-text toolbar'
          }
          data={styleOptions}
          value={definition.custom_styles_names ?? []}
          onChange={(names) => set({ custom_styles_names: names.length > 0 ? names : undefined })}
          disabled={styleOptions.length === 0}
          error={error('custom_styles_names')}
        />
      </Stack>
    </Fieldset>
  );
}
