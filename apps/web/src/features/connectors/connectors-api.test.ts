import { describe, expect, it } from 'vitest';
import { initialSettings, type SetupField, settingsToSend } from './connectors-api.ts';

const fields: SetupField[] = [
  { name: 'api_key', label: 'API key', type: 'password', required: true, secret: true },
  { name: 'region', label: 'Data centre', type: 'select', required: true, secret: false, default: 'us' },
];

describe('connector settings in the form', () => {
  it('starts from the stored values, masked secrets included, else the defaults', () => {
    expect(initialSettings(fields)).toEqual({ api_key: '', region: 'us' });
    expect(initialSettings(fields, { api_key: '••••cdef', region: 'eu' })).toEqual({
      api_key: '••••cdef',
      region: 'eu',
    });
  });

  it('sends every filled value for a new connector and only changes for a stored one', () => {
    expect(settingsToSend(fields, { api_key: ' key ', region: 'us' }, null)).toEqual({
      api_key: 'key',
      region: 'us',
    });
    const stored = { api_key: '••••cdef', region: 'us' };
    expect(settingsToSend(fields, { api_key: '••••cdef', region: 'eu' }, stored)).toEqual({ region: 'eu' });
    expect(settingsToSend(fields, { api_key: 'new-key', region: 'us' }, stored)).toEqual({
      api_key: 'new-key',
    });
  });
});
