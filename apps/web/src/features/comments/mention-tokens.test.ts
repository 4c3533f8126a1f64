import { describe, expect, it } from 'vitest';
import { activeMention, insertMention, mentionToken, parseCommentBody } from './mention-tokens.ts';

describe('mention tokens', () => {
  it('cuts a body into text and mentions', () => {
    expect(parseCommentBody('Hi @[Ada Lovelace](user:42), see @[Bo](user:7)!')).toEqual([
      { kind: 'text', text: 'Hi ' },
      { kind: 'mention', name: 'Ada Lovelace', userId: 42 },
      { kind: 'text', text: ', see ' },
      { kind: 'mention', name: 'Bo', userId: 7 },
      { kind: 'text', text: '!' },
    ]);
  });

  it('leaves text that only looks like a mention alone', () => {
    for (const body of ['@Ada', '@[Ada](user:x)', '[Ada](user:1)', '@[](user:1)', 'mail@[x](user:1']) {
      expect(parseCommentBody(body)).toEqual([{ kind: 'text', text: body }]);
    }
  });

  it('formats a token that parses back to the same person, whatever the name holds', () => {
    expect(mentionToken('Ada Lovelace', 42)).toBe('@[Ada Lovelace](user:42)');
    const token = mentionToken('Weird [name]\nhere', 9);
    expect(parseCommentBody(token)).toEqual([{ kind: 'mention', name: 'Weird  name  here', userId: 9 }]);
  });

  it('finds the mention being typed at the caret', () => {
    expect(activeMention('Hello @ad', 9)).toEqual({ start: 6, query: 'ad' });
    expect(activeMention('@', 1)).toEqual({ start: 0, query: '' });
    expect(activeMention('Hello @ad', 7)).toEqual({ start: 6, query: '' });
    expect(activeMention('mail@example', 12)).toBeNull();
    expect(activeMention('Hello there', 11)).toBeNull();
    expect(activeMention('@ada\nnext', 9)).toBeNull();
  });

  it('replaces what was typed with the token and puts the caret after it', () => {
    const typed = 'Ping @ad please';
    expect(insertMention(typed, 5, 8, { name: 'Ada Lovelace', userId: 42 })).toEqual({
      text: 'Ping @[Ada Lovelace](user:42) please',
      caret: 30,
    });
  });
});
