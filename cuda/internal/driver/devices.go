package driver

import (
	"bytes"
	"fmt"
)

// Device attributes (CUdevice_attribute) cclabel reads.
const (
	attrMultiprocessors          = 16
	attrThreadsPerMultiprocessor = 39
	attrComputeMajor             = 75
	attrComputeMinor             = 76
)

// Device describes one GPU.
type Device struct {
	Ordinal         int    `json:"ordinal"`
	Name            string `json:"name"`
	MemoryBytes     uint64 `json:"memory_bytes"`
	ComputeMajor    int    `json:"compute_major"`
	ComputeMinor    int    `json:"compute_minor"`
	Multiprocessors int    `json:"multiprocessors"`
}

// ComputeCapability returns the compute capability as "9.0".
func (d Device) ComputeCapability() string {
	return fmt.Sprintf("%d.%d", d.ComputeMajor, d.ComputeMinor)
}

// DriverVersion returns the driver's CUDA version as major, minor (12.8
// for 12080).
func (d *Driver) DriverVersion() (major, minor int, err error) {
	var v int32
	if err := d.check("cuDriverGetVersion", d.cuDriverGetVersion(&v)); err != nil {
		return 0, 0, err
	}
	return int(v / 1000), int(v % 1000 / 10), nil
}

// Devices lists the GPUs the driver sees.
func (d *Driver) Devices() ([]Device, error) {
	var count int32
	if err := d.check("cuDeviceGetCount", d.cuDeviceGetCount(&count)); err != nil {
		return nil, err
	}
	if count == 0 {
		return nil, errNoDevice
	}
	devices := make([]Device, 0, count)
	for i := range count {
		var dev int32
		if err := d.check("cuDeviceGet", d.cuDeviceGet(&dev, i)); err != nil {
			return nil, err
		}
		name := make([]byte, 256)
		if err := d.check("cuDeviceGetName", d.cuDeviceGetName(&name[0], int32(len(name)), dev)); err != nil {
			return nil, err
		}
		if n := bytes.IndexByte(name, 0); n >= 0 {
			name = name[:n]
		}
		info := Device{Ordinal: int(i), Name: string(name)}
		if err := d.check("cuDeviceTotalMem_v2", d.cuDeviceTotalMem(&info.MemoryBytes, dev)); err != nil {
			return nil, err
		}
		for _, a := range []struct {
			attr int32
			dst  *int
		}{
			{attrComputeMajor, &info.ComputeMajor},
			{attrComputeMinor, &info.ComputeMinor},
			{attrMultiprocessors, &info.Multiprocessors},
		} {
			var v int32
			if err := d.check("cuDeviceGetAttribute", d.cuDeviceGetAttribute(&v, a.attr, dev)); err != nil {
				return nil, err
			}
			*a.dst = int(v)
		}
		devices = append(devices, info)
	}
	return devices, nil
}

// Status says whether the GPU path can run on this machine, and why not.
type Status struct {
	// Available is true when the driver loaded and sees a device.
	Available bool `json:"available"`
	// Reason explains why the GPU path cannot run ("" when it can).
	Reason string `json:"reason,omitempty"`
	// Driver is the driver's CUDA version ("12.8"), when it loaded.
	Driver string `json:"driver,omitempty"`
	// Devices lists the GPUs seen.
	Devices []Device `json:"devices,omitempty"`
}

// Available probes the CUDA driver and reports whether the GPU path can run.
//
// It loads libcuda.so.1, initialises it and lists the devices, then
// unloads it. It never fails; when the GPU path cannot run,
// [Status].Reason says why.
func Available() Status {
	d, err := Open()
	if err != nil {
		return Status{Reason: err.Error()}
	}
	defer d.Close()
	return d.Status()
}

// Status reports whether the GPU path can run with the opened driver d: its
// CUDA version and the devices it sees, or why not.
func (d *Driver) Status() Status {
	var s Status
	if major, minor, err := d.DriverVersion(); err == nil {
		s.Driver = fmt.Sprintf("%d.%d", major, minor)
	}
	devices, err := d.Devices()
	if err != nil {
		s.Reason = err.Error()
		return s
	}
	s.Available, s.Devices = true, devices
	return s
}
