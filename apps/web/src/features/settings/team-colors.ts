import type { TeamColor } from './settings-api.ts';

/** The API's named badge colours as shown on screen. */
export const teamColorHex: Record<TeamColor, string> = {
  white: '#ffffff',
  black: '#1a1b1e',
  gray: '#868e96',
  red: '#fa5252',
  green: '#40c057',
  blue: '#228be6',
  yellow: '#fab005',
  purple: '#7950f2',
  pink: '#e64980',
  orange: '#fd7e14',
  brown: '#8d5b3a',
  cyan: '#15aabf',
  lime: '#82c91e',
  teal: '#12b886',
  indigo: '#4c6ef5',
};

export const teamColors = Object.keys(teamColorHex) as TeamColor[];

export function teamColorOf(hex: string): TeamColor | undefined {
  return teamColors.find((color) => teamColorHex[color].toLowerCase() === hex.toLowerCase());
}
