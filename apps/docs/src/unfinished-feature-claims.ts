/**
 * Phrases that promise a feature for later. Every feature these docs describe ships, so a page that
 * still says one is "being built" is out of date: the build fails and names the page and the line.
 */
export const unfinishedFeaturePhrases = [
  'being built',
  'coming soon',
  'not built yet',
  'until it ships',
  'until they ship',
  'when it ships',
  'when they ship',
] as const;

export function unfinishedFeatureClaims(fileContent: string): { line: number; phrase: string }[] {
  const claims: { line: number; phrase: string }[] = [];
  fileContent.split('\n').forEach((text, index) => {
    const lower = text.toLowerCase();
    for (const phrase of unfinishedFeaturePhrases)
      if (lower.includes(phrase)) claims.push({ line: index + 1, phrase });
  });
  return claims;
}

/** The build's Markdown preprocessor: refuses a page that promises a feature for later. */
export function refuseUnfinishedFeatureClaims({
  filePath,
  fileContent,
}: {
  filePath: string;
  fileContent: string;
}): string {
  const claims = unfinishedFeatureClaims(fileContent);
  if (claims.length > 0) {
    const where = claims.map(({ line, phrase }) => `line ${line}: "${phrase}"`).join(', ');
    throw new Error(
      `${filePath} says a feature is not there yet (${where}). Every feature these docs describe ships: ` +
        'say what it does today.',
    );
  }
  return fileContent;
}
