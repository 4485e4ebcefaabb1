// Package fileprogress shows how far the work on one long file is: a bar
// on a terminal, drawn in place, that appears only once the file has taken
// longer than a delay (about 2 s), with the stage (reading, labeling,
// writing), the bytes done out of the known total and the elapsed time.
// Quick files print nothing, and nothing is printed where the output is
// not a terminal.
package fileprogress
