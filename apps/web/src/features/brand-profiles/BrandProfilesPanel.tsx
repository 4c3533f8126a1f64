import { Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useCan } from '../../app/session.ts';
import { CollectionPanel } from '../../shared/CollectionPanel.tsx';
import type { DesignSystem } from '../design-systems/design-systems-api.ts';
import { BrandProfileForm } from './BrandProfileForm.tsx';
import type { BrandProfile } from './brand-overrides.ts';
import { brandProfileListKey, brandProfilePageQuery, deleteBrandProfile } from './brand-profiles-api.ts';

/** A design system's brand profiles: per-brand tokens, hidden components and field overrides. */
export function BrandProfilesPanel({
  workspaceId,
  system,
  editable,
}: {
  workspaceId: number;
  system: DesignSystem;
  editable: boolean;
}) {
  const can = useCan();
  const [page, setPage] = useState(1);
  const query = useQuery(brandProfilePageQuery(workspaceId, system.id, page));
  const canChange = editable && can('update_brand_profiles');

  return (
    <CollectionPanel
      noun="brand profile"
      description="A brand profile adapts this design system to one brand: token overrides (merged over the system's), components hidden for the brand, and field overrides (default value, label, hidden in the editor or from AI)."
      query={query}
      onPage={setPage}
      queryKey={brandProfileListKey(workspaceId, system.id)}
      headers={['Name', 'Overrides']}
      cells={(profile) => [
        <Text key="name" span inherit fw={500}>
          {profile.name}
        </Text>,
        <Text key="overrides" size="sm">
          {overridesSummary(profile)}
        </Text>,
      ]}
      nameOf={(profile) => profile.name}
      permissions={{
        create: editable && can('create_brand_profiles'),
        update: canChange,
        delete: editable && can('delete_brand_profiles'),
      }}
      renderForm={(profile, close) => (
        <BrandProfileForm
          workspaceId={workspaceId}
          system={system}
          profile={profile}
          readOnly={profile !== null && !canChange}
          onClose={close}
        />
      )}
      deleteItem={(profile) => deleteBrandProfile(workspaceId, system.id, profile.id)}
      deleteMessage="Emails made with this brand fall back to the design system as it is. This cannot be undone."
      emptyHint="Emails use the design system as it is. Add a profile per brand that needs its own colours or defaults."
    />
  );
}

function overridesSummary(profile: BrandProfile): string {
  const hidden = profile.component_overrides.filter((override) => override.hidden).length;
  const fields = profile.component_overrides.reduce(
    (sum, override) => sum + override.field_overrides.length,
    0,
  );
  return `${Object.keys(profile.design_tokens).length} token groups · ${hidden} hidden components · ${fields} field overrides`;
}
