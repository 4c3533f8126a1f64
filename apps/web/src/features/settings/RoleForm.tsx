import { keysBeyond, type PermissionKey } from '@letterset/core/permissions';
import { Alert, Button, Group, Input, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { showApiErrors } from '../../shared/form-errors.ts';
import { PermissionChecklist } from './PermissionChecklist.tsx';
import type { Role } from './settings-api.ts';
import { saveRole } from './settings-api.ts';

/** Creates a custom role (no `role`) or edits one; built-in roles are shown read-only. */
export function RoleForm({
  role,
  canSave,
  heldKeys,
  onSaved,
}: {
  role: Role | null;
  canSave: boolean;
  /** The editor's own keys: a role holding others cannot be changed by them, nor given others. */
  heldKeys: readonly string[];
  onSaved: (role: Role) => void;
}) {
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string[]>([]);
  const beyondYou = role && !role.builtin ? keysBeyond(heldKeys, role.role_permissions) : [];
  const readOnly = !canSave || Boolean(role?.builtin) || beyondYou.length > 0;
  const form = useForm({
    initialValues: {
      name: role?.name ?? '',
      role_permissions: (role?.role_permissions ?? []) as PermissionKey[],
    },
    validate: { name: (value) => (value.trim() ? null : 'Give the role a name') },
  });
  const save = useMutation({
    mutationFn: ({ name, role_permissions }: typeof form.values) =>
      saveRole(role?.id ?? null, { name: name.trim(), role_permissions }),
    onSuccess: async (saved) => {
      setProblem([]);
      form.resetDirty();
      await queryClient.invalidateQueries({ queryKey: ['roles'] });
      onSaved(saved);
    },
    onError: (error) => setProblem(showApiErrors(form, error, ['name', 'role_permissions'])),
  });

  return (
    <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
      <Stack gap="md">
        {role?.builtin && (
          <Alert color="gray" title="Built-in role">
            Built-in roles cannot be changed. Create a custom role to grant a different set of permissions.
          </Alert>
        )}
        {canSave && beyondYou.length > 0 && (
          <Alert color="gray" title="Beyond your own keys">
            This role holds keys you do not hold ({beyondYou.join(', ')}), so you cannot change it.
          </Alert>
        )}
        {problem.length > 0 && (
          <Alert color="red" role="alert">
            {problem.join(' ')}
          </Alert>
        )}
        <TextInput
          label="Name"
          required
          maxLength={100}
          readOnly={readOnly}
          {...form.getInputProps('name')}
        />
        <Input.Wrapper
          label="Permissions"
          description={`${form.values.role_permissions.length} granted`}
          error={form.errors.role_permissions}
        >
          <Stack mt="xs">
            <PermissionChecklist
              value={form.values.role_permissions}
              readOnly={readOnly}
              heldKeys={heldKeys}
              onChange={(keys) => form.setFieldValue('role_permissions', keys)}
            />
          </Stack>
        </Input.Wrapper>
        {!readOnly && (
          <Group>
            <Button type="submit" loading={save.isPending}>
              {role ? 'Save role' : 'Create role'}
            </Button>
            {form.isDirty() && (
              <Text size="sm" c="dimmed">
                Unsaved changes
              </Text>
            )}
          </Group>
        )}
      </Stack>
    </form>
  );
}
