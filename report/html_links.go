package report

// PageLink is a link a page shows: where it goes (relative to the page)
// and its text, e.g. the comparison with the previous night of the run's
// series, with the one-line verdict as its text.
type PageLink struct{ Href, Text string }
