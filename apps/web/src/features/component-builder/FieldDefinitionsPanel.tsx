import { type CustomStyle, type FieldDefinition, fieldTypeSpecs, fieldTypes } from '@letterset/core';
import { Accordion, ActionIcon, Badge, Button, Group, Menu, Stack, Text } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { arrayMove, DragHandle, SortableList, useSortableItem } from '../../shared/SortableList.tsx';
import { FieldDefinitionEditor } from './FieldDefinitionEditor.tsx';
import { type DraftField, draftKey, type FieldProblems, newFieldDefinition } from './field-definitions.ts';

/** The component's fields: add one of any type, edit, drag to reorder, delete. */
export function FieldDefinitionsPanel({
  fields,
  onChange,
  problems,
  savedProblems,
  customStyles,
  feedFields,
  readOnly = false,
}: {
  fields: DraftField[];
  onChange: (fields: DraftField[]) => void;
  /** Everything to show: the browser's checks and the API's last 422. */
  problems: FieldProblems;
  /** The API's last 422 alone: when it changes, the first field it names is opened. */
  savedProblems: FieldProblems;
  customStyles: readonly CustomStyle[];
  /** The fields of the component's feed, or null when it has none. */
  feedFields: readonly string[] | null;
  readOnly?: boolean;
}) {
  const [open, setOpen] = useState<string | null>(null);
  const fieldsRef = useRef(fields);
  fieldsRef.current = fields;

  // After a refused save, open the first field the API complained about so its messages are in view.
  useEffect(() => {
    const firstWithProblems = Object.keys(savedProblems)
      .map(Number)
      .sort((a, b) => a - b)[0];
    if (firstWithProblems !== undefined) setOpen(fieldsRef.current[firstWithProblems]?.key ?? null);
  }, [savedProblems]);

  const add = (type: FieldDefinition['type']) => {
    const field = {
      key: draftKey(),
      definition: newFieldDefinition(
        type,
        fields.map((f) => f.definition),
      ),
    };
    onChange([...fields, field]);
    setOpen(field.key);
  };

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Text fw={500}>Fields</Text>
        {!readOnly && (
          <Menu position="bottom-end">
            <Menu.Target>
              <Button size="xs" leftSection={<IconPlus size={14} />}>
                Add field
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {fieldTypes.map((type) => (
                <Menu.Item key={type} onClick={() => add(type)}>
                  {fieldTypeSpecs[type].label}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        )}
      </Group>
      {fields.length === 0 ? (
        <Text size="sm" c="dimmed">
          No fields yet. Fields are what people fill in; the template reads each by its Liquid variable, e.g.{' '}
          <code>{'{{ headline }}'}</code>.
        </Text>
      ) : (
        <SortableList
          ids={fields.map((field) => field.key)}
          onMove={(from, to) => onChange(arrayMove(fields, from, to))}
        >
          <Accordion variant="separated" value={open} onChange={setOpen}>
            {fields.map((field, index) => (
              <SortableField
                key={field.key}
                field={field}
                problems={problems[index]}
                customStyles={customStyles}
                feedFields={feedFields}
                readOnly={readOnly}
                onChange={(definition) =>
                  onChange(
                    fields.map((other) => (other.key === field.key ? { ...other, definition } : other)),
                  )
                }
                onRemove={() => onChange(fields.filter((other) => other.key !== field.key))}
              />
            ))}
          </Accordion>
        </SortableList>
      )}
    </Stack>
  );
}

function SortableField({
  field,
  problems,
  customStyles,
  feedFields,
  readOnly,
  onChange,
  onRemove,
}: {
  field: DraftField;
  problems: Record<string, string[]> | undefined;
  customStyles: readonly CustomStyle[];
  feedFields: readonly string[] | null;
  readOnly: boolean;
  onChange: (definition: FieldDefinition) => void;
  onRemove: () => void;
}) {
  const { itemRef, itemStyle, handle } = useSortableItem(field.key, { disabled: readOnly });
  const { definition } = field;
  const problemCount = Object.values(problems ?? {}).flat().length;
  return (
    <Accordion.Item
      value={field.key}
      ref={itemRef}
      style={itemStyle}
      data-testid={`field-definition-${definition.liquid_variable}`}
    >
      <Group gap={4} wrap="nowrap" pl={4} pr="xs">
        {!readOnly && <DragHandle label={`Move field ${definition.label}`} handle={handle} />}
        <Accordion.Control style={{ flex: 1, minWidth: 0 }}>
          <Group gap="xs" wrap="nowrap">
            <Text size="sm" fw={500} truncate>
              {definition.label || 'Untitled field'}
            </Text>
            <Badge size="xs" variant="light">
              {fieldTypeSpecs[definition.type].label}
            </Badge>
            <Text size="xs" c="dimmed" ff="monospace" truncate>
              {definition.liquid_variable}
            </Text>
            {problemCount > 0 && (
              <Badge size="xs" color="red">
                {problemCount === 1 ? '1 problem' : `${problemCount} problems`}
              </Badge>
            )}
          </Group>
        </Accordion.Control>
        {!readOnly && (
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`Delete field ${definition.label}`}
            onClick={onRemove}
          >
            <IconTrash size={16} />
          </ActionIcon>
        )}
      </Group>
      <Accordion.Panel>
        <FieldDefinitionEditor
          definition={definition}
          onChange={onChange}
          problems={problems}
          customStyles={customStyles}
          feedFields={feedFields}
        />
      </Accordion.Panel>
    </Accordion.Item>
  );
}
