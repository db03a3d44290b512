/**
 * The performance mark the draft preview leaves when its click-to-edit overlays were started by their
 * deadline rather than after the live connection's first refresh (preview-tools.tsx). Read by studio.spec.
 */
export const OVERLAYS_DEADLINE_MARK = 'preview:overlays-by-deadline';
