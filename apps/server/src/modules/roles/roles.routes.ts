import { organizationCrudRoutes } from '../../http/organization-crud-routes.ts';
import { CreateRoleBody, Role, RoleParams, UpdateRoleBody } from './roles.schemas.ts';
import { createRole, deleteRole, getRole, listRoles, updateRole } from './roles.service.ts';

export const rolesRoutes = organizationCrudRoutes({
  path: 'roles',
  tag: 'Roles',
  name: { singular: 'Role', plural: 'Roles', words: 'role' },
  permissions: { create: 'create_roles', update: 'update_roles', delete: 'delete_roles' },
  schemas: { item: Role, create: CreateRoleBody, update: UpdateRoleBody, itemParams: RoleParams },
  summaries: {
    create: 'Create a custom role',
    update: 'Rename a custom role or change its permissions',
    delete: 'Delete a custom role',
  },
  descriptions: {
    create: 'The role may hold only permission keys you hold yourself (else 403, naming the others).',
    update:
      'Built-in roles cannot be changed (422). You must hold every key the role has and every key you give it ' +
      '(else 403, naming the keys you lack). A change that would leave no active person holding both ' +
      'update_roles and update_users is refused (422). Users with the role get the new permissions at once.',
    delete:
      'Refused (422) for built-in roles and for roles still assigned to users, and (403) when the role holds ' +
      'a permission key you lack.',
  },
  service: {
    list: (services, principal, _query, page) => listRoles(services, principal, page),
    create: createRole,
    get: getRole,
    update: updateRole,
    delete: deleteRole,
  },
});
