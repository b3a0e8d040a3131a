extension CrashThread {
    /// The frames a parser makes room for when it starts reading a thread; a deeper thread grows.
    ///
    /// The crash keeps the storage its parser reserved. Room for 64 frames in each of a crash's 40-odd threads, 9
    /// frames deep on average in the bench's crashes, held 0.5 MB a crash unused: 111 MB of the `.ips` reports and 61 MB
    /// of the `.crash` reports in a zip of 423 crash files, whose reports are all held until the input is written.
    static let framesReserved = 8
}
