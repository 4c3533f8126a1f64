import { describe, expect, it } from 'vitest';
import { type NavigationSection, usesWholeWindow, visibleNavigation } from './navigation.ts';

const sections: NavigationSection[] = [
  {
    label: 'Workspace',
    items: [
      { label: 'Projects', to: '/workspaces/$workspaceId/projects', anyOf: [] },
      { label: 'Images', to: '/workspaces/$workspaceId/images', anyOf: [] },
    ],
  },
  {
    label: 'Settings',
    items: [
      { label: 'API keys', to: '/settings/api-keys', anyOf: ['manage_api_keys'] },
      { label: 'Roles', to: '/settings/roles', anyOf: ['create_roles', 'update_roles'] },
    ],
  },
];

describe('visibleNavigation', () => {
  it('shows items that need no permission to everyone and drops sections left empty', () => {
    const visible = visibleNavigation([], sections);
    expect(visible.map((section) => section.label)).toEqual(['Workspace']);
    expect(visible[0]?.items.map((item) => item.label)).toEqual(['Projects', 'Images']);
  });

  it('shows an item when the role grants any one of its keys', () => {
    const visible = visibleNavigation(['update_roles'], sections);
    expect(visible[1]?.items.map((item) => item.label)).toEqual(['Roles']);
  });
});

describe('usesWholeWindow', () => {
  it('is true for the email editor only', () => {
    expect(usesWholeWindow('/workspaces/1/emails/42/edit')).toBe(true);
    expect(usesWholeWindow('/workspaces/1/layouts/7/edit')).toBe(true);
    expect(usesWholeWindow('/workspaces/1/emails/42/edit/')).toBe(true);
    expect(usesWholeWindow('/workspaces/1/projects/3')).toBe(false);
    expect(usesWholeWindow('/workspaces/1/design-systems/2/components/5/edit')).toBe(false);
  });
});
