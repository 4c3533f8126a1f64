import { useEffect, useState } from 'react';

export interface ImageProportion {
  width: number;
  height: number;
}

/**
 * The pixel size of the image at `url` once the browser has loaded it, or null (no URL, not an
 * image, still loading). An image field's current picture tells the proportion its section was
 * designed for; a generated replacement is cropped to it.
 */
export function useImageProportion(url: string | undefined): ImageProportion | null {
  const [proportion, setProportion] = useState<{ url: string; size: ImageProportion } | null>(null);
  useEffect(() => {
    if (!url) return;
    let current = true;
    const image = new window.Image();
    image.onload = () => {
      if (current && image.naturalWidth > 0 && image.naturalHeight > 0)
        setProportion({ url, size: { width: image.naturalWidth, height: image.naturalHeight } });
    };
    image.src = url;
    return () => {
      current = false;
      image.onload = null;
    };
  }, [url]);
  return proportion && proportion.url === url ? proportion.size : null;
}
