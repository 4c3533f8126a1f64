import { permissionKeys } from '@letterset/core';
import { Type } from 'typebox';
import { IdParams, Name, RequestBody, Timestamp } from '../../http/schemas.ts';

export const PermissionKeySchema = Type.Enum([...permissionKeys], { description: 'A permission key' });

export const Role = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    role_permissions: Type.Array(PermissionKeySchema),
    builtin: Type.Boolean({
      description: 'Built-in roles (Viewer, Editor, Developer, Admin) cannot be changed',
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Role' },
);

const RoleName = Name();
const RolePermissions = Type.Array(PermissionKeySchema, { uniqueItems: true, maxItems: 200 });

export const CreateRoleBody = RequestBody({ name: RoleName, role_permissions: RolePermissions });
export const UpdateRoleBody = RequestBody({
  name: Type.Optional(RoleName),
  role_permissions: Type.Optional(RolePermissions),
});
export const RoleParams = IdParams;
