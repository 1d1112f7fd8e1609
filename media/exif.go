package media

import (
	"encoding/binary"
	"image"

	"github.com/disintegration/imaging"
)

// orientationOf answers the EXIF orientation (1..8) recorded in a JPEG's APP1 segment or a WebP's
// EXIF chunk; 1 (as stored) when there is none or it cannot be read. Only the one tag is read,
// with every offset bounds-checked, so a hostile EXIF block cannot do more than be ignored.
func orientationOf(format string, b []byte) int {
	var tiff []byte
	switch format {
	case "jpeg":
		tiff = jpegExif(b)
	case "webp":
		tiff = webpExif(b)
	}
	if o := tiffOrientation(tiff); o != 0 {
		return o
	}
	return 1
}

// jpegExif answers the TIFF block of the first Exif APP1 segment, reading markers up to the
// start of the image data.
func jpegExif(b []byte) []byte {
	if len(b) < 4 || b[0] != 0xFF || b[1] != 0xD8 {
		return nil
	}
	i := 2
	for i+4 <= len(b) {
		if b[i] != 0xFF {
			return nil
		}
		marker := b[i+1]
		switch {
		case marker == 0xFF: // fill byte
			i++
			continue
		case marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7): // markers without a length
			i += 2
			continue
		case marker == 0xDA || marker == 0xD9: // start of scan, end of image: no metadata after
			return nil
		}
		n := int(binary.BigEndian.Uint16(b[i+2:]))
		if n < 2 || i+2+n > len(b) {
			return nil
		}
		seg := b[i+4 : i+2+n]
		if marker == 0xE1 && len(seg) > 6 && string(seg[:6]) == "Exif\x00\x00" {
			return seg[6:]
		}
		i += 2 + n
	}
	return nil
}

// webpExif answers the TIFF block of a WebP's EXIF chunk.
func webpExif(b []byte) []byte {
	if len(b) < 12 || string(b[:4]) != "RIFF" || string(b[8:12]) != "WEBP" {
		return nil
	}
	for i := 12; i+8 <= len(b); {
		n := int(binary.LittleEndian.Uint32(b[i+4:]))
		if n < 0 || n > len(b)-i-8 {
			return nil
		}
		if string(b[i:i+4]) == "EXIF" {
			c := b[i+8 : i+8+n]
			if len(c) > 6 && string(c[:6]) == "Exif\x00\x00" {
				c = c[6:]
			}
			return c
		}
		i += 8 + n + n%2 // chunks are padded to an even size
	}
	return nil
}

// tiffOrientation answers the Orientation tag (0x0112) of a TIFF block's first IFD, or 0.
func tiffOrientation(t []byte) int {
	if len(t) < 8 {
		return 0
	}
	var bo binary.ByteOrder
	switch string(t[:2]) {
	case "II":
		bo = binary.LittleEndian
	case "MM":
		bo = binary.BigEndian
	default:
		return 0
	}
	if bo.Uint16(t[2:]) != 42 {
		return 0
	}
	off := uint64(bo.Uint32(t[4:]))
	if off < 8 || off+2 > uint64(len(t)) {
		return 0
	}
	count := int(bo.Uint16(t[off:]))
	for k := 0; k < count; k++ {
		e := int(off) + 2 + 12*k
		if e+12 > len(t) {
			return 0
		}
		if bo.Uint16(t[e:]) != 0x0112 {
			continue
		}
		if bo.Uint16(t[e+2:]) != 3 { // SHORT
			return 0
		}
		if v := int(bo.Uint16(t[e+8:])); v >= 1 && v <= 8 {
			return v
		}
		return 0
	}
	return 0
}

// orient turns img as EXIF orientation o says, so it shows upright once the tag is gone.
func orient(img image.Image, o int) image.Image {
	switch o {
	case 2:
		return imaging.FlipH(img)
	case 3:
		return imaging.Rotate180(img)
	case 4:
		return imaging.FlipV(img)
	case 5:
		return imaging.Transpose(img)
	case 6:
		return imaging.Rotate270(img) // 90° clockwise
	case 7:
		return imaging.Transverse(img)
	case 8:
		return imaging.Rotate90(img) // 90° counter-clockwise
	}
	return img
}
