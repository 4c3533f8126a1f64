import { Alert, Button, Checkbox, Group, Modal, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { showApiErrors } from '../../shared/form-errors.ts';
import { type Component, useCreateComponent } from './component-builder-api.ts';

const formFields = ['name', 'label', 'container'] as const;

// The container wraps every email, so it starts as a document that already prints the email's components.
const containerStarter = `<!doctype html>
<html>
  <body style="margin: 0;">
    {{children}}
  </body>
</html>
`;

/** Name a new component; the builder opens on it to write its template and fields. */
export function NewComponentModal({
  workspaceId,
  designSystemId,
  canBeContainer,
  onClose,
  onCreated,
}: {
  workspaceId: number;
  designSystemId: number;
  /** Only while the system has no container: there is one per system. */
  canBeContainer: boolean;
  onClose: () => void;
  onCreated: (component: Component) => void;
}) {
  const createComponent = useCreateComponent(workspaceId, designSystemId);
  const [problems, setProblems] = useState<string[]>([]);
  const form = useForm({ initialValues: { label: '', name: '', container: canBeContainer } });

  const create = form.onSubmit(async (values) => {
    setProblems([]);
    try {
      const component = await createComponent.mutateAsync({
        name: values.name.trim(),
        label: values.label.trim(),
        container: values.container,
        template: values.container ? containerStarter : '',
        field_definitions: [],
      });
      onCreated(component);
    } catch (error) {
      setProblems(showApiErrors(form, error, formFields));
    }
  });

  return (
    <Modal opened onClose={onClose} title="New component">
      <form onSubmit={create} noValidate>
        {problems.length > 0 && (
          <Alert color="red" mb="md" role="alert">
            {problems.join(' ')}
          </Alert>
        )}
        <TextInput
          label="Label"
          description="What people see in the editor, e.g. Hero banner"
          required
          mb="sm"
          data-autofocus
          {...form.getInputProps('label')}
          onChange={(event) => {
            const label = event.currentTarget.value;
            const suggested = toIdentifier(form.values.label);
            form.setFieldValue('label', label);
            // Follow the label until the user types a name of their own.
            if (form.values.name === '' || form.values.name === suggested) {
              form.setFieldValue('name', toIdentifier(label));
            }
          }}
        />
        <TextInput
          label="Name"
          description="A stable identifier (lowercase letters, digits, underscores); renaming it later breaks emails"
          required
          mb="sm"
          {...form.getInputProps('name')}
        />
        {canBeContainer && (
          <Checkbox
            label="This is the container (the wrapper of every email; prints {{children}})"
            mb="md"
            {...form.getInputProps('container', { type: 'checkbox' })}
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            Create and open
          </Button>
        </Group>
      </form>
    </Modal>
  );
}

export function toIdentifier(label: string): string {
  return label
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^[^a-z]+/, '')
    .replace(/_+$/, '')
    .slice(0, 64);
}
