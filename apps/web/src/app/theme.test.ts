import { DEFAULT_THEME, isLightColor, type MantineColorShade, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { contrast, cssVariablesResolver, theme } from './theme.ts';

const resolved = mergeMantineTheme(DEFAULT_THEME, theme);
const light = cssVariablesResolver(resolved).light;
const { gray } = resolved.colors;

describe('the theme reaches WCAG AA contrast (4.5:1) for normal text', () => {
  it('dimmed text on white and on the light greys', () => {
    for (const background of ['#ffffff', gray[0], gray[1], gray[2]]) {
      expect(contrast(light['--mantine-color-dimmed'] as string, background)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('every colour’s light variant text on its background, hovered too', () => {
    for (const [name, shades] of Object.entries(resolved.colors)) {
      const text = light[`--mantine-color-${name}-light-color`] as string;
      expect(contrast(text, shades[1]), name).toBeGreaterThanOrEqual(4.5);
      expect(contrast(text, shades[2]), name).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('text in any colour, on white and on its light tint', () => {
    for (const [name, shades] of Object.entries(resolved.colors)) {
      const text = light[`--mantine-color-${name}-text`] as string;
      expect(contrast(text, '#ffffff'), name).toBeGreaterThanOrEqual(4.5);
      expect(contrast(text, shades[1]), name).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('the primary colour, indigo, as links on white', () => {
    const shade = (resolved.primaryShade as { light: MantineColorShade }).light;
    expect(contrast(resolved.colors.indigo[shade], '#ffffff')).toBeGreaterThanOrEqual(4.5);
  });

  it('the black or white text Mantine picks for every filled colour', () => {
    const shade = (resolved.primaryShade as { light: MantineColorShade }).light;
    for (const [name, shades] of Object.entries(resolved.colors)) {
      const filled = shades[shade];
      const text = isLightColor(filled, resolved.luminanceThreshold) ? resolved.black : resolved.white;
      expect(contrast(text, filled), name).toBeGreaterThanOrEqual(4.5);
    }
  });
});
