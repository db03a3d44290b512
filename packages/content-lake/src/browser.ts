/** What a browser may load of the lake: where it answers, and the embedded project's name. */
export { LAKE_PATH, lakeApiHost, LOCAL_EDITOR, LOCAL_PROJECT, LOCAL_TOKEN } from './local.ts';
