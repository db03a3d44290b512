import { useDocumentOperationEvent, type LayoutProps } from 'sanity';

/**
 * The Studio's layout, which keeps its document operations running while document panes remount.
 * "Restore most recent revision" on a deleted document's banner starts a restore, then opens the document
 * through the edit intent, which unmounts every document pane for a moment. The stream that runs the
 * operations is shared by the panes and stops when none listens, so the restore stopped with it, waiting
 * for the revision it had asked for, and nothing was restored (sanity 5.31.2). Listening here, for no
 * document in particular, keeps that one stream open for as long as the Studio is.
 */
export function KeepOperationsLayout(props: LayoutProps) {
  useDocumentOperationEvent('', '');
  return props.renderDefault(props);
}
