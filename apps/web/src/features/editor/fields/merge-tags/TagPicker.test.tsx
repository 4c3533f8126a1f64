import { MantineProvider } from '@mantine/core';
import { render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { PersonalizationTag } from '../../editor-api.ts';
import { TextWithTags } from '../TextWithTags.tsx';
import { filterTags } from './TagPicker.tsx';

const tags = [
  { id: 4, label: 'First name' },
  { id: 9, label: 'City' },
  { id: 12, label: 'Last name' },
] as PersonalizationTag[];

/** A subject field holding its own value, reporting each change. */
function Subject({ initial = '', onChange }: { initial?: string; onChange: (value: string) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <MantineProvider env="test">
      <TextWithTags
        label="Subject"
        value={value}
        onChange={(next) => {
          setValue(next);
          onChange(next);
        }}
        personalizationTags={tags}
      />
    </MantineProvider>
  );
}

async function subjectField() {
  const field = await screen.findByRole('textbox', { name: 'Subject' });
  await userEvent.click(field);
  return field;
}

/**
 * Types one key per call: ProseMirror reads each change from the DOM a moment after it happens,
 * and in jsdom a key typed within the same call can land before it has.
 */
async function type(text: string) {
  for (const character of text) await userEvent.keyboard(character === '{' ? '{{' : character);
}

const optionNames = () => screen.getAllByRole('option').map((option) => option.textContent);

describe('filterTags', () => {
  it('keeps the tags whose label holds the query, those starting with it first', () => {
    expect(filterTags(tags, 'name').map((tag) => tag.id)).toEqual([4, 12]);
    expect(filterTags(tags, 'NA').map((tag) => tag.id)).toEqual([4, 12]);
    expect(filterTags(tags, 'la').map((tag) => tag.id)).toEqual([12]);
    expect(filterTags(tags, 'c').map((tag) => tag.id)).toEqual([9]);
    expect(filterTags(tags, ' ').map((tag) => tag.id)).toEqual([4, 9, 12]);
  });
});

describe('the tag picker', () => {
  it('opens when { is typed, filters as you type, and inserts the highlighted tag with Enter', async () => {
    const onChange = vi.fn();
    render(<Subject onChange={onChange} />);
    await subjectField();
    await type('Hi {');
    expect(screen.getByRole('listbox', { name: 'Personalization tags' })).toBeInTheDocument();
    expect(optionNames()).toEqual(['First name', 'City', 'Last name']);
    await type('na');
    expect(optionNames()).toEqual(['First name', 'Last name']);
    await userEvent.keyboard('{ArrowDown}');
    expect(screen.getByRole('option', { name: 'Last name' })).toHaveAttribute('aria-selected', 'true');
    await userEvent.keyboard('{Enter}');
    expect(onChange).toHaveBeenLastCalledWith('Hi {tag:12}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Subject' }).querySelector('.ls-tag-chip')).toHaveTextContent(
      'Last name',
    );
  });

  it('wraps around with the arrows and picks with a click', async () => {
    const onChange = vi.fn();
    render(<Subject onChange={onChange} />);
    await subjectField();
    await type('{');
    await userEvent.keyboard('{ArrowUp}');
    expect(screen.getByRole('option', { name: 'Last name' })).toHaveAttribute('aria-selected', 'true');
    await userEvent.click(screen.getByRole('option', { name: 'City' }));
    expect(onChange).toHaveBeenLastCalledWith('{tag:9}');
  });

  it('closes with Escape and leaves the { as typed', async () => {
    const onChange = vi.fn();
    render(<Subject onChange={onChange} />);
    await subjectField();
    await type('Save {');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    await type('x');
    expect(onChange).toHaveBeenLastCalledWith('Save {x');
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('says when no tag matches, and Enter then adds no line', async () => {
    const onChange = vi.fn();
    render(<Subject onChange={onChange} />);
    await subjectField();
    await type('{zz');
    expect(screen.getByText('No personalization tag matches')).toBeInTheDocument();
    await userEvent.keyboard('{Enter}');
    expect(onChange).toHaveBeenLastCalledWith('{zz');
  });

  it('opens from the button with a search box, and inserts where the caret was', async () => {
    const onChange = vi.fn();
    render(<Subject onChange={onChange} />);
    await subjectField();
    await type('Dear');
    await userEvent.click(screen.getByRole('button', { name: 'Insert a personalization tag into Subject' }));
    const search = await screen.findByRole('textbox', { name: 'Search personalization tags' });
    await waitFor(() => expect(search).toHaveFocus());
    await userEvent.keyboard('cit');
    expect(optionNames()).toEqual(['City']);
    await userEvent.keyboard('{Enter}');
    // A space before the chip: it follows a word.
    expect(onChange).toHaveBeenLastCalledWith('Dear {tag:9}');
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('puts the chip at the end of a field that has not had the caret yet', async () => {
    const onChange = vi.fn();
    render(<Subject initial="Welcome" onChange={onChange} />);
    await userEvent.click(
      await screen.findByRole('button', { name: 'Insert a personalization tag into Subject' }),
    );
    await screen.findByRole('textbox', { name: 'Search personalization tags' });
    await userEvent.click(screen.getByRole('option', { name: 'First name' }));
    expect(onChange).toHaveBeenLastCalledWith('Welcome {tag:4}');
  });

  it('is not offered in a read-only field', async () => {
    render(
      <MantineProvider env="test">
        <TextWithTags
          label="Subject"
          value="Hi {tag:4}"
          onChange={() => {}}
          disabled
          personalizationTags={tags}
        />
      </MantineProvider>,
    );
    const field = await screen.findByRole('textbox', { name: 'Subject' });
    expect(field).toHaveAttribute('contenteditable', 'false');
    expect(field.querySelector('.ls-tag-chip')).toHaveTextContent('First name');
    expect(screen.queryByRole('button', { name: /Insert a personalization tag/ })).toBeNull();
  });
});
