// What the timeline has selected and marked: the picked slice (a slice of
// the window shown, gone with the next window), the selected event (kept
// across windows) and its linked events from the engine, a dragged range,
// and a span or a name marked from a table row.
import { useEffect, useState } from 'react';
import type { TimelineEvent, TimelineRelated, TimelineTrackInfo, TimelineWindowSlices } from '../engine/timeline_types';
import { sourceEventOf, type PickedSlice } from '../lib/timeline';
import { useEngine } from './engine';
import { message, useErrors } from './errors';

/** An event of a track: its index in the track (a window's `event`). */
export interface EventRef {
  track: number;
  event: number;
}

export interface TimelineSelection {
  /** The picked slice of `slices` (null once other slices are shown). */
  picked: PickedSlice | null;
  /** A click's slice (null: none): it and its event become the selection. */
  pick: (p: PickedSlice | null) => void;
  /** An event (a linked one's "Go to") becomes the selection, no slice picked. */
  selectEvent: (e: TimelineEvent) => void;
  selected: EventRef | null;
  /** The selected event's links, once the engine answered for this selection. */
  links: TimelineRelated | null;
  /** A dragged range, ns offsets. */
  selection: [number, number] | null;
  setSelection: (r: [number, number] | null) => void;
  /** A span marked from a table row (absolute ns), and a name whose slices are marked. */
  highlight: [bigint, bigint] | null;
  setHighlight: (h: [bigint, bigint] | null) => void;
  highlightName: string | null;
  setHighlightName: (name: string | null) => void;
  /** The event a table row showed on the timeline: outlined, every other slice dimmed, until a click picks another. */
  spotlight: TimelineEvent | null;
  setSpotlight: (e: TimelineEvent | null) => void;
}

export function useTimelineSelection(
  reportId: number,
  slices: TimelineWindowSlices | null,
  tracks: TimelineTrackInfo[] = [],
): TimelineSelection {
  const { client } = useEngine();
  const { pushError } = useErrors();
  // A picked slice indexes the slices it was picked from.
  const [pickedIn, setPickedIn] = useState<{ p: PickedSlice; of: TimelineWindowSlices | null } | null>(null);
  const [selected, setSelected] = useState<EventRef | null>(null);
  const [links, setLinks] = useState<TimelineRelated | null>(null);
  const [selection, setSelection] = useState<[number, number] | null>(null);
  const [highlight, setHighlight] = useState<[bigint, bigint] | null>(null);
  const [highlightName, setHighlightName] = useState<string | null>(null);
  const [spotlight, setSpotlight] = useState<TimelineEvent | null>(null);

  // The selected event's links, from the engine (built there on the first ask).
  useEffect(() => {
    setLinks(null);
    if (!selected) return;
    let live = true;
    client
      .timelineRelated(reportId, selected.track, selected.event)
      .then((r) => live && setLinks(r))
      .catch((e) => pushError(message(e)));
    return () => {
      live = false;
    };
  }, [client, reportId, selected, pushError]);

  const pick = (p: PickedSlice | null) => {
    setSpotlight(null);
    setPickedIn(p && { p, of: slices });
    const s = p && slices?.tracks.find((t) => t.id === p.track);
    // A merged row's ([All Streams]) slice selects the event on its own stream.
    setSelected(p && s ? sourceEventOf((id) => tracks[id], p.track, s.event[p.index]) : null);
  };
  const selectEvent = (e: TimelineEvent) => {
    setPickedIn(null);
    setSelected({ track: e.track, event: e.event });
  };
  // The links of the current selection only (not of the one before while the engine answers).
  const current =
    links && selected && links.selected.track === selected.track && links.selected.event === selected.event ? links : null;
  return {
    picked: pickedIn && pickedIn.of === slices ? pickedIn.p : null,
    pick,
    selectEvent,
    selected,
    links: current,
    selection,
    setSelection,
    highlight,
    setHighlight,
    highlightName,
    setHighlightName,
    spotlight,
    setSpotlight,
  };
}
