// Package raw reads headerless volumes of binary samples. It reads them given
// their shape, NumPy dtype and byte order, and streams volumes a few planes
// at a time ([Stream]) for the other format packages.
package raw
