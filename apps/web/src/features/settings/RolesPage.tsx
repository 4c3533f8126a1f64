import { canGrant } from '@letterset/core/permissions';
import { Badge, Button, Grid, Group, NavLink, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useCan, useMe } from '../../app/session.ts';
import { confirmDestructive } from '../../shared/confirm.tsx';
import { PageHeader } from '../../shared/PageHeader.tsx';
import { QueryState } from '../../shared/QueryState.tsx';
import { failureMessage } from './failure-message.ts';
import { RoleForm } from './RoleForm.tsx';
import { allRolesQuery, deleteRole, type Role } from './settings-api.ts';

/** Roles and what they grant: built-in ones to read, custom ones to create, edit and delete. */
export function RolesPage() {
  const can = useCan();
  const heldKeys = useMe().permissions;
  const queryClient = useQueryClient();
  const roles = useQuery(allRolesQuery);
  const [selected, setSelected] = useState<number | 'new' | null>(null);
  const canCreate = can('create_roles');

  const remove = async (role: Role) => {
    const confirmed = await confirmDestructive({
      title: 'Delete role',
      message: `Delete the role “${role.name}”? Roles still given to people cannot be deleted.`,
      confirmLabel: 'Delete',
    });
    if (!confirmed) return;
    try {
      await deleteRole(role.id);
      setSelected(null);
      notifications.show({ color: 'teal', message: `The role “${role.name}” was deleted.` });
      await queryClient.invalidateQueries({ queryKey: ['roles'] });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: 'Could not delete the role',
        message: failureMessage(error),
      });
    }
  };

  return (
    <Stack>
      <PageHeader
        title="Roles"
        breadcrumbs={[{ label: 'Settings', to: '/settings' }, { label: 'Roles' }]}
        actions={canCreate && <Button onClick={() => setSelected('new')}>New role</Button>}
      />
      <QueryState query={roles} isEmpty={(data) => data.length === 0} empty={<Text>No roles yet.</Text>}>
        {(data) => {
          const current =
            selected === 'new' ? null : (data.find((role) => role.id === selected) ?? data[0] ?? null);
          const editing = selected === 'new' ? 'new' : current?.id;
          return (
            <Grid>
              <Grid.Col span={{ base: 12, md: 4 }}>
                <Paper withBorder p="xs" component="nav" aria-label="Roles">
                  {data.map((role) => (
                    <NavLink
                      key={role.id}
                      component="button"
                      type="button"
                      label={role.name}
                      description={`${role.role_permissions.length} ${role.role_permissions.length === 1 ? 'permission' : 'permissions'}`}
                      rightSection={role.builtin ? <Badge variant="light">Built-in</Badge> : null}
                      active={editing === role.id}
                      aria-current={editing === role.id ? 'true' : undefined}
                      onClick={() => setSelected(role.id)}
                    />
                  ))}
                </Paper>
              </Grid.Col>
              <Grid.Col span={{ base: 12, md: 8 }}>
                <Paper withBorder p="lg">
                  <Group justify="space-between" mb="md">
                    <Title order={2} fz="h4">
                      {current ? current.name : 'New role'}
                    </Title>
                    {current &&
                      !current.builtin &&
                      can('delete_roles') &&
                      canGrant(heldKeys, current.role_permissions) && (
                        <Button variant="subtle" color="red" onClick={() => remove(current)}>
                          Delete role
                        </Button>
                      )}
                  </Group>
                  <RoleForm
                    key={editing ?? 'none'}
                    role={current}
                    canSave={current ? can('update_roles') : canCreate}
                    heldKeys={heldKeys}
                    onSaved={(role) => {
                      setSelected(role.id);
                      notifications.show({ color: 'teal', message: `The role “${role.name}” was saved.` });
                    }}
                  />
                </Paper>
              </Grid.Col>
            </Grid>
          );
        }}
      </QueryState>
    </Stack>
  );
}
