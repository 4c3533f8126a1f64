import { TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useState } from 'react';

/** A search box that tells its owner what to look for once the user pauses typing. */
export function SearchInput({
  value,
  onSearch,
  label = 'Search',
  placeholder = 'Search by name',
}: {
  value: string;
  onSearch: (term: string) => void;
  label?: string;
  placeholder?: string;
}) {
  const [draft, setDraft] = useState(value);
  const search = useDebouncedCallback(onSearch, 250);
  return (
    <TextInput
      aria-label={label}
      placeholder={placeholder}
      value={draft}
      type="search"
      w={{ base: '100%', sm: 280 }}
      onChange={(event) => {
        setDraft(event.currentTarget.value);
        search(event.currentTarget.value.trim());
      }}
    />
  );
}
