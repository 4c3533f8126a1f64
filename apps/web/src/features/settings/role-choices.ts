import { canGrant } from '@letterset/core/permissions';
import type { Role } from './settings-api.ts';

/**
 * Roles to offer in a role picker. Nobody gives a role holding a key they lack (the API answers
 * 403), so such roles are shown, saying why, but cannot be chosen.
 */
export function roleChoices(roles: readonly Role[], heldKeys: readonly string[]) {
  return roles.map((role) => {
    const grantable = canGrant(heldKeys, role.role_permissions);
    return {
      value: String(role.id),
      label: grantable ? role.name : `${role.name} (holds keys you do not)`,
      disabled: !grantable,
    };
  });
}
