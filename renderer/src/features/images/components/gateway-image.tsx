import { downloadFile } from '../../../lib/download';
import { filePath, useFileObjectUrl } from '../api/get-file-content';
import type { GeneratedImage } from '../images-types';

interface Props {
  image: GeneratedImage;
  alt: string;
  name: string;
  onOpen?(src: string): void;
}

/** One generated image: inline base64 when sent, else fetched from the gateway with the key. */
export function GatewayImage({ image, alt, name, onOpen }: Props) {
  const inline = image.b64_json ? `data:image/png;base64,${image.b64_json}` : null;
  const file = useFileObjectUrl(inline || !image.url ? null : filePath(image.url));
  const src = inline ?? file.objectUrl;
  if (file.isError) return <div className="gallery-tile gallery-error small">{file.error.message}</div>;
  if (!src) return <div className="gallery-tile gallery-loading" aria-label="Loading image" />;
  return (
    <figure className="gallery-tile" data-testid="generated-image">
      <button type="button" className="gallery-open" onClick={() => onOpen?.(src)} aria-label={`Open ${alt} full size`}>
        <img src={src} alt={alt} />
      </button>
      <figcaption>
        <button
          type="button"
          className="btn btn-sm"
          onClick={() =>
            file.data
              ? downloadFile(name, file.data)
              : void fetch(src)
                  .then((r) => r.blob())
                  .then((b) => downloadFile(name, b))
          }
        >
          ⤓ Download
        </button>
      </figcaption>
    </figure>
  );
}
