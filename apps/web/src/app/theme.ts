import {
  ColorInput,
  type CSSVariablesResolver,
  createTheme,
  Drawer,
  darken,
  luminance,
  Modal,
  NavLink,
} from '@mantine/core';

// The dialogs' × button is named for screen readers. Not "Close": several dialogs also have a
// visible Close button, and the two would share one name.
const dialogCloseButtonProps = { 'aria-label': 'Dismiss' };

export const theme = createTheme({
  primaryColor: 'indigo',
  // Shade 7 is the first indigo that white text and links on white reach 4.5:1 on (shade 6 is 4.3:1).
  primaryShade: { light: 7, dark: 8 },
  // Filled buttons and badges of every colour pick black or white text, whichever reaches 4.5:1:
  // 0.179 is the luminance where both are equal.
  autoContrast: true,
  luminanceThreshold: 0.179,
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  components: {
    Modal: Modal.extend({ defaultProps: { closeButtonProps: dialogCloseButtonProps } }),
    Drawer: Drawer.extend({ defaultProps: { closeButtonProps: dialogCloseButtonProps } }),
    ColorInput: ColorInput.extend({
      defaultProps: { eyeDropperButtonProps: { 'aria-label': 'Pick a colour from the screen' } },
    }),
    // Mantine fades an active link's description to 0.9, which takes it below 4.5:1 on its tint.
    NavLink: NavLink.extend({ styles: { description: { opacity: 1 } } }),
  },
});

/** WCAG's contrast ratio of two colours. */
export function contrast(first: string, second: string): number {
  const [a, b] = [luminance(first), luminance(second)];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

/** The colour, darkened in small steps until its text reaches WCAG AA's 4.5:1 on the background. */
function readableOn(background: string, color: string): string {
  let readable = color;
  for (let amount = 0.05; contrast(readable, background) < 4.5 && amount < 1; amount += 0.05) {
    readable = darken(color, amount);
  }
  return readable;
}

/**
 * Mantine's dimmed text (gray 6, #868e96) is 3.32:1 on white, below WCAG AA's 4.5:1. This grey is
 * 5.8:1 on white and stays above 4.5:1 on the light greys and tints it sits on (gray 0 to 2, the
 * colours' light backgrounds). In the dark scheme, dark 1 is 5.6:1 or more on dark 5 to 7.
 * Light variants (badges, alerts, active links) put shade 9 on shade 1, under 4.5:1 for teal,
 * green, lime, yellow and orange: their text is darkened until it reads on shade 2, the hovered
 * background. Errors use red 9 (red 6 is 3.3:1). Text in a colour (`c="orange"`, `c="red"`: warnings,
 * errors, confirmations) is the colour's filled shade by default, 2.2:1 on white for orange: it is
 * darkened until it reads on shade 1 too, the tint of the alerts and badges it sits in.
 */
export const cssVariablesResolver: CSSVariablesResolver = (resolvedTheme) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': '#5f666d',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    ...Object.fromEntries(
      Object.entries(resolvedTheme.colors).flatMap(([name, shades]) => [
        [`--mantine-color-${name}-light-color`, readableOn(shades[2], shades[9])],
        [`--mantine-color-${name}-text`, readableOn(shades[1], shades[7])],
      ]),
    ),
  },
  dark: { '--mantine-color-dimmed': 'var(--mantine-color-dark-1)' },
});
