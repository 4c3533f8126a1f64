import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useCan } from '../../app/session.ts';
import {
  CollectionTable,
  type RowAction,
  RowActionsMenu,
  useCollectionEditing,
  useConfirmedDelete,
} from '../../shared/CollectionPanel.tsx';
import { EmptyState } from '../../shared/EmptyState.tsx';
import { FormActions, FormProblems } from '../../shared/FormParts.tsx';
import { showApiErrors } from '../../shared/form-errors.ts';
import { componentListQuery } from '../component-builder/component-builder-api.ts';
import type { DesignSystem } from '../design-systems/design-systems-api.ts';
import { LayoutThumbnail } from './LayoutThumbnail.tsx';
import type { Layout } from './layout-content.ts';
import {
  deleteLayout,
  layoutKeys,
  layoutPageQuery,
  useCreateLayout,
  useRenameLayout,
} from './layouts-api.ts';

const layoutEditorLink = (workspaceId: number, layoutId: number) =>
  ({
    to: '/workspaces/$workspaceId/layouts/$layoutId/edit',
    params: { workspaceId: String(workspaceId), layoutId: String(layoutId) },
  }) as const;

/** Saved starting points for emails made with this design system: list, open in the editor, rename, delete, start one. */
export function LayoutsPanel({ workspaceId, system }: { workspaceId: number; system: DesignSystem }) {
  const can = useCan();
  const [page, setPage] = useState(1);
  const editing = useCollectionEditing<Layout>();
  const query = useQuery(layoutPageQuery(workspaceId, system.id, page));
  const components = useQuery(componentListQuery(workspaceId, system.id));
  const container = components.data?.results.find((component) => component.container);
  const remove = useConfirmedDelete<Layout>({
    noun: 'layout',
    nameOf: (layout) => layout.name,
    deleteItem: (layout) => deleteLayout(workspaceId, layout.id),
    queryKey: layoutKeys.all(workspaceId),
    deleteMessage: 'Emails already started from it keep their content. This cannot be undone.',
    failureTitle: 'Not deleted',
  });
  const rowActions = (layout: Layout): RowAction[] => [
    ...(can('update_layouts')
      ? [
          { label: 'Edit in the editor', link: layoutEditorLink(workspaceId, layout.id) },
          { label: 'Rename', onClick: () => editing.open(layout) },
        ]
      : []),
    ...(can('delete_layouts') ? [{ label: 'Delete', color: 'red', onClick: () => remove(layout) }] : []),
  ];

  return (
    <Stack>
      <Group justify="space-between" align="flex-start">
        <Text size="sm" c="dimmed" maw={640}>
          A layout is a saved arrangement of this design system's components that new emails can start from.
          Open one to arrange it in the editor, or save one from an email with Save as layout.
        </Text>
        {can('create_layouts') && (
          <Button
            onClick={editing.openNew}
            disabled={!container}
            title={container ? undefined : 'Add a container component first'}
          >
            New layout
          </Button>
        )}
      </Group>
      <CollectionTable
        query={query}
        onPage={setPage}
        headers={['Preview', 'Name', 'Components', 'Updated']}
        cells={(layout) => [
          <LayoutThumbnail key="preview" workspaceId={workspaceId} layout={layout} width={120} />,
          <Text key="name" span inherit fw={500}>
            <Link {...layoutEditorLink(workspaceId, layout.id)} style={{ color: 'inherit' }}>
              {layout.name}
            </Link>
          </Text>,
          layout.content.component_instances.length,
          new Date(layout.updated_at).toLocaleDateString(),
        ]}
        rowActions={
          can('update_layouts') || can('delete_layouts')
            ? (layout) => <RowActionsMenu name={layout.name} actions={rowActions(layout)} />
            : undefined
        }
        empty={
          <EmptyState
            title="No layouts for this design system"
            hint={
              container
                ? 'Start an empty one, or save one from an email.'
                : 'Layouts need the design system’s container component first.'
            }
            action={
              container &&
              can('create_layouts') && (
                <Button variant="light" onClick={editing.openNew}>
                  Create the first layout
                </Button>
              )
            }
          />
        }
      />
      {editing.isOpen && (
        <LayoutNameForm
          workspaceId={workspaceId}
          system={system}
          layout={editing.item}
          containerId={container?.id ?? null}
          onClose={editing.close}
        />
      )}
    </Stack>
  );
}

function LayoutNameForm({
  workspaceId,
  system,
  layout,
  containerId,
  onClose,
}: {
  workspaceId: number;
  system: DesignSystem;
  layout: Layout | null;
  containerId: number | null;
  onClose: () => void;
}) {
  const navigate = useNavigate();
  const createLayout = useCreateLayout(workspaceId);
  const renameLayout = useRenameLayout(workspaceId);
  const [problems, setProblems] = useState<string[]>([]);
  const form = useForm({ initialValues: { name: layout?.name ?? '' } });
  const save = form.onSubmit(async ({ name }) => {
    setProblems([]);
    try {
      if (layout) {
        await renameLayout.mutateAsync({ id: layout.id, name: name.trim() });
      } else if (containerId !== null) {
        const created = await createLayout.mutateAsync({
          name: name.trim(),
          email_design_system_id: system.id,
          // Just the container: components are added in the editor, which opens next.
          content: {
            container_component_instance: {
              id: crypto.randomUUID(),
              component_id: containerId,
              field_values: {},
            },
            component_instances: [],
          },
        });
        await navigate(layoutEditorLink(workspaceId, created.id));
        return;
      }
      notifications.show({ message: `${name.trim()} saved` });
      onClose();
    } catch (error) {
      setProblems(showApiErrors(form, error, ['name']));
    }
  });
  return (
    <Modal opened onClose={onClose} title={layout ? `Rename ${layout.name}` : 'New layout'}>
      <form onSubmit={save} noValidate>
        <Stack>
          <FormProblems problems={problems} />
          <TextInput label="Name" required data-autofocus {...form.getInputProps('name')} />
          <FormActions
            readOnly={false}
            onCancel={onClose}
            submitLabel={layout ? 'Save' : 'Create and open'}
            submitting={form.submitting}
          />
        </Stack>
      </form>
    </Modal>
  );
}
