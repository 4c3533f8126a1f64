import qrcode from 'qrcode-generator';
import { useMemo } from 'react';

/** A QR code drawn as one SVG path, for authenticator apps to scan. */
export function QrCode({ value, size = 176, label }: { value: string; size?: number; label: string }) {
  const { path, modules } = useMemo(() => {
    const code = qrcode(0, 'M');
    code.addData(value);
    code.make();
    const count = code.getModuleCount();
    let d = '';
    for (let row = 0; row < count; row++) {
      for (let column = 0; column < count; column++) {
        if (code.isDark(row, column)) d += `M${column} ${row}h1v1h-1z`;
      }
    }
    return { path: d, modules: count };
  }, [value]);
  // A quiet zone of 4 modules around the code lets cameras find it.
  return (
    <svg
      role="img"
      aria-label={label}
      width={size}
      height={size}
      viewBox={`-4 -4 ${modules + 8} ${modules + 8}`}
      shapeRendering="crispEdges"
      style={{ background: '#fff' }}
    >
      <path d={path} fill="#000" />
    </svg>
  );
}
