import { setSubject } from '@letterset/core';
import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { BranchedTextSetting } from './BranchedTextSetting.tsx';
import type { Conditional } from './editor-api.ts';
import { TextWithTags } from './loaded-on-demand.tsx';
import { renderableSession } from './test-session.tsx';

function conditional(id: number, label: string, allowed: boolean): Conditional {
  return {
    id,
    label,
    branches: [
      { key: 'gold', label: 'Gold members' },
      { key: 'others', label: 'Everyone else' },
    ],
    can_be_used_in_subject_and_preheader: allowed,
  } as Conditional;
}

const tiers = conditional(7, 'Membership tier', true);
const bodyOnly = conditional(8, 'Body only', false);

describe('BranchedTextSetting', () => {
  // The text field's code, downloaded when first shown in the app, is here before the first render.
  beforeAll(async () => {
    await TextWithTags.preload();
  });

  it('attaches an allowed conditional to the subject, edits each branch, and detaches', async () => {
    const setBranch = vi.fn();
    const { editor, Live } = renderableSession({ conditionals: [tiers, bodyOnly], setBranch });
    render(
      <Live>{(document) => <BranchedTextSetting part="subject" text={document.content.subject} />}</Live>,
    );

    await userEvent.click(screen.getByRole('combobox', { name: 'Subject conditional' }));
    // Conditionals not allowed in subject and preheader are not offered.
    expect(screen.queryByRole('option', { name: 'Body only' })).toBeNull();
    await userEvent.click(screen.getByRole('option', { name: 'Membership tier' }));
    expect(editor.getState().document.content.subject.conditional_id).toBe(7);
    expect(editor.getState().document.content.preheader.conditional_id).toBeNull();

    const gold = screen.getByRole('textbox', { name: 'Subject (en-US): Gold members' });
    const others = screen.getByRole('textbox', { name: 'Subject (en-US): Everyone else' });
    await userEvent.clear(others);
    await userEvent.type(others, 'Hi');
    expect(setBranch).toHaveBeenLastCalledWith(7, 'others');
    expect(editor.getState().document.content.subject.branch_content.others?.['en-US']).toBe('Hi');
    await userEvent.click(gold);
    expect(setBranch).toHaveBeenLastCalledWith(7, 'gold');

    await userEvent.click(screen.getByRole('button', { name: 'Use one subject' }));
    expect(editor.getState().document.content.subject.conditional_id).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Subject (en-US)' })).toBeTruthy();
  });

  it('edits the preheader text without a conditional', async () => {
    const { editor, Live } = renderableSession({ conditionals: [tiers] });
    const dispatch = vi.spyOn(editor, 'dispatch');
    render(
      <Live>{(document) => <BranchedTextSetting part="preheader" text={document.content.preheader} />}</Live>,
    );
    const preheader = screen.getByRole('textbox', { name: 'Preheader (en-US)' });
    await userEvent.click(preheader);
    // The caret after the text, where a click after it puts it (jsdom lays out no text to click).
    const text = preheader.querySelector('p')?.firstChild;
    if (text) document.getSelection()?.collapse(text, 'Read on'.length);
    await userEvent.keyboard('!');
    expect(dispatch).toHaveBeenLastCalledWith(
      expect.objectContaining({ type: 'setPreheader', text: 'Read on!' }),
    );
    expect(dispatch).not.toHaveBeenCalledWith(setSubject('null_branch', 'en-US', 'Read on!'));
  });

  it('does not offer to attach a conditional without add_remove_conditional_from_components', () => {
    const { Live } = renderableSession({ conditionals: [tiers] }, ['update_emails']);
    render(
      <Live>{(document) => <BranchedTextSetting part="subject" text={document.content.subject} />}</Live>,
    );
    expect(screen.queryByRole('combobox', { name: 'Subject conditional' })).toBeNull();
  });
});
