import { toGid } from '../../common/gid.js';
import { graphqlTime } from '../../common/shop-time.js';
import type { ImageRecord } from '../../products/product.model.js';
import type { GraphQLObject } from '../admin-context.js';

/** A product image as GraphQL `Image`. */
export function imageNode(image: ImageRecord): GraphQLObject {
  return {
    __typename: 'Image',
    id: toGid('ProductImage', image.id),
    altText: image.alt,
    url: () => image.src,
    src: image.src,
    originalSrc: image.src,
    transformedSrc: () => image.src,
    width: image.width,
    height: image.height,
    thumbhash: null,
  };
}

/** A product image as GraphQL `MediaImage` (the `Media` of a product). */
export function mediaImageNode(image: ImageRecord): GraphQLObject {
  const preview = { __typename: 'MediaPreviewImage', image: imageNode(image), status: 'READY' };
  return {
    __typename: 'MediaImage',
    id: toGid('MediaImage', image.mediaId),
    alt: image.alt,
    mediaContentType: 'IMAGE',
    status: 'READY',
    fileStatus: 'READY',
    mediaErrors: [],
    mediaWarnings: [],
    fileErrors: [],
    image: imageNode(image),
    preview,
    mimeType: mimeTypeOf(image.src),
    originalSource: { __typename: 'MediaImageOriginalSource', url: image.src, fileSize: null },
    createdAt: graphqlTime(image.createdAt),
    updatedAt: graphqlTime(image.updatedAt),
  };
}

function mimeTypeOf(src: string): string {
  const extension = /\.([a-z]+)(\?|$)/i.exec(src)?.[1]?.toLowerCase();
  if (extension === 'jpg' || extension === 'jpeg') return 'image/jpeg';
  if (extension === 'gif') return 'image/gif';
  return 'image/png';
}
