import type { BrandProfileDefinition, ComponentDefinition, DesignSystemDefinition } from '@letterset/core';
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useMemo } from 'react';
import { HtmlPreview } from '../../shared/HtmlPreview.tsx';
import { QueryState } from '../../shared/QueryState.tsx';
import { designSystemQuery } from '../editor/editor-api.ts';
import { brandPreviewHtml } from './brand-preview.ts';

/** The brand's sample email, following the dialog's unsaved tokens and overrides as they change. */
export function BrandPreview({
  workspaceId,
  designSystemId,
  brandProfile,
}: {
  workspaceId: number;
  designSystemId: number;
  /** The dialog's current state, saved or not. */
  brandProfile: BrandProfileDefinition;
}) {
  const query = useQuery(designSystemQuery(workspaceId, designSystemId));
  return (
    <QueryState query={query}>
      {(data) => (
        <RenderedBrand
          designSystem={data.system as DesignSystemDefinition}
          components={data.components as ComponentDefinition[]}
          brandProfile={brandProfile}
        />
      )}
    </QueryState>
  );
}

function RenderedBrand({
  designSystem,
  components,
  brandProfile,
}: {
  designSystem: DesignSystemDefinition;
  components: ComponentDefinition[];
  brandProfile: BrandProfileDefinition;
}) {
  // A colour picker dragged across its palette sends many values: the preview follows a step behind.
  const shown = useDeferredValue(brandProfile);
  const output = useMemo(
    () => brandPreviewHtml({ designSystem, components, brandProfile: shown }),
    [designSystem, components, shown],
  );
  return (
    <HtmlPreview
      title="Brand preview"
      heading="Preview with this brand"
      html={output.html}
      problems={output.problems}
      height="calc(100vh - 220px)"
    />
  );
}
