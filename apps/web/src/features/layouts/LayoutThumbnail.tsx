import {
  type BrandProfileDefinition,
  type ComponentDefinition,
  type DesignSystemDefinition,
  renderHtml,
} from '@letterset/core';
import { Box, Skeleton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { brandProfilesQuery } from '../brand-profiles/brand-profiles-api.ts';
import { designSystemQuery } from '../editor/editor-api.ts';
import { type Layout, layoutAsEmailContent } from './layout-content.ts';

/** The desktop preview's width, as the editor shows an email. */
const emailWidth = 660;
/** How much of the top of the email the thumbnail shows, in the email's own pixels. */
const shownHeight = 880;

/**
 * A small picture of a layout, rendered in this browser by core, as the editor would show it, and
 * scaled down; it runs no script and takes no clicks.
 */
export function LayoutThumbnail({
  workspaceId,
  layout,
  width = 160,
}: {
  workspaceId: number;
  layout: Layout;
  width?: number;
}) {
  const scale = width / emailWidth;
  const system = useQuery(designSystemQuery(workspaceId, layout.email_design_system_id));
  const brandProfiles = useQuery(brandProfilesQuery(workspaceId, layout.email_design_system_id));
  const html = useMemo(() => {
    if (!system.data || !brandProfiles.data) return null;
    const brandProfile = brandProfiles.data.results.find((profile) => profile.id === layout.brand_profile_id);
    return renderHtml({
      designSystem: system.data.system as DesignSystemDefinition,
      components: system.data.components as ComponentDefinition[],
      brandProfile: (brandProfile as BrandProfileDefinition | undefined) ?? null,
      content: layoutAsEmailContent(layout),
      locale: layout.locales[0] ?? 'en-US',
      mode: 'editor_preview',
      email: { id: null, name: layout.name },
    }).html;
  }, [system.data, brandProfiles.data, layout]);

  const height = Math.round(shownHeight * scale);
  if (html === null)
    return <Skeleton w={width} h={height} aria-label={`Loading the preview of ${layout.name}`} />;
  return (
    <Box
      w={width}
      h={height}
      style={{
        overflow: 'hidden',
        border: '1px solid var(--mantine-color-gray-3)',
        borderRadius: 4,
        flexShrink: 0,
      }}
    >
      <iframe
        title={`Preview of ${layout.name}`}
        sandbox=""
        srcDoc={html}
        tabIndex={-1}
        style={{
          width: emailWidth,
          height: shownHeight,
          border: 0,
          transform: `scale(${scale})`,
          transformOrigin: '0 0',
          pointerEvents: 'none',
          background: 'white',
        }}
      />
    </Box>
  );
}
