import type { EditorDocument } from '@letterset/core';
import { Checkbox, Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { FormActions, FormProblems } from '../../shared/FormParts.tsx';
import { showApiErrors } from '../../shared/form-errors.ts';
import { layoutContentFrom } from './layout-content.ts';
import { useCreateLayout } from './layouts-api.ts';

/** Saves what the editor shows as a new layout of the email's design system, for new emails to start from. */
export function SaveAsLayoutModal({
  workspaceId,
  designSystemId,
  brandProfileId,
  document,
  emailName,
  onClose,
}: {
  workspaceId: number;
  designSystemId: number;
  brandProfileId: number | null;
  document: EditorDocument;
  emailName: string;
  onClose: () => void;
}) {
  const createLayout = useCreateLayout(workspaceId);
  const [problems, setProblems] = useState<string[]>([]);
  const form = useForm({
    initialValues: { name: emailName, keepValues: true },
    validate: { name: (value) => (value.trim() ? null : 'Enter a name') },
  });
  const save = form.onSubmit(async ({ name, keepValues }) => {
    setProblems([]);
    try {
      const layout = await createLayout.mutateAsync({
        name: name.trim(),
        email_design_system_id: designSystemId,
        brand_profile_id: brandProfileId,
        locales: document.locales as never,
        content: layoutContentFrom(document, { keepValues }) as never,
      });
      notifications.show({ message: `Layout ${layout.name} saved: new emails can start from it` });
      onClose();
    } catch (error) {
      setProblems(showApiErrors(form, error, ['name']));
    }
  });
  return (
    <Modal opened onClose={onClose} title="Save as layout">
      <form onSubmit={save} noValidate>
        <Stack>
          <FormProblems problems={problems} />
          <TextInput label="Layout name" withAsterisk data-autofocus {...form.getInputProps('name')} />
          <Checkbox
            label="Keep the field values"
            description="Unticked, the layout keeps the components and their order, with every field at its default."
            {...form.getInputProps('keepValues', { type: 'checkbox' })}
          />
          <FormActions
            readOnly={false}
            onCancel={onClose}
            submitLabel="Save layout"
            submitting={form.submitting}
          />
        </Stack>
      </form>
    </Modal>
  );
}
