import { describe, expect, it } from 'vitest';
import { isPermissionKey } from '../permissions.ts';
import { commandPermissions, insertComponent, permissionFor, setFieldValue } from './commands.ts';
import { everyCommand, heroHeadline } from './sample-document.ts';

describe('commandPermissions', () => {
  it('names the key the server checks for each kind of change', () => {
    expect(commandPermissions).toEqual({
      insertComponent: 'add_remove_reorder_email_components',
      moveComponent: 'add_remove_reorder_email_components',
      removeComponent: 'add_remove_reorder_email_components',
      duplicateComponent: 'add_remove_reorder_email_components',
      renameComponent: 'update_emails',
      setFieldValue: 'update_emails',
      setFieldValues: 'update_emails',
      setLinkTrackingParameter: 'update_emails',
      setConditional: 'add_remove_conditional_from_components',
      setSubject: 'update_emails',
      setPreheader: 'update_emails',
      setSubjectConditional: 'add_remove_conditional_from_components',
      setPreheaderConditional: 'add_remove_conditional_from_components',
      addLocale: 'add_remove_locales_from_emails',
      removeLocale: 'add_remove_locales_from_emails',
      setDefaultLocale: 'update_emails',
      copyLocaleValues: 'update_emails',
      setTranslationStatus: 'update_emails',
      setHiddenInLocale: 'update_emails',
      setGlobalLinkTrackingParameter: 'update_emails',
    });
    for (const key of Object.values(commandPermissions)) expect(isPermissionKey(key), key).toBe(true);
  });

  it('permissionFor reads the key of a command object', () => {
    expect(permissionFor(setFieldValue(heroHeadline, 'x'))).toBe('update_emails');
    expect(permissionFor(insertComponent({ componentId: 1, index: 0 }))).toBe(
      'add_remove_reorder_email_components',
    );
  });
});

describe('command factories', () => {
  it('make plain, serialisable objects, one of every type', () => {
    const commands = everyCommand();
    expect(new Set(commands.map((command) => command.type))).toEqual(
      new Set(Object.keys(commandPermissions)),
    );
    for (const command of commands) {
      expect(Object.getPrototypeOf(command), command.type).toBe(Object.prototype);
      expect(JSON.parse(JSON.stringify(command)), command.type).toEqual(command);
    }
  });

  it('carry the payload they were given', () => {
    expect(setFieldValue(heroHeadline, 'x')).toEqual({ type: 'setFieldValue', ...heroHeadline, value: 'x' });
    expect(insertComponent({ componentId: 3, index: 1, instanceId: 'id-1' })).toEqual({
      type: 'insertComponent',
      componentId: 3,
      index: 1,
      instanceId: 'id-1',
      fieldValues: {},
    });
  });
});
