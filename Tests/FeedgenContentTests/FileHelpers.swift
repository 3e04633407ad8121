import Foundation

func FileManagerRemove(_ path: String) throws {
    try FileManager.default.removeItem(atPath: path)
}

func FileManagerSymlink(at path: String, to destination: String) throws {
    try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: destination)
}
